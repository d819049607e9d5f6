/* SPDX-License-Identifier: MIT */
/* offsetof needs a complete struct or union type. */
BEGIN
{
	trace(offsetof(struct never_declared, m));
}
