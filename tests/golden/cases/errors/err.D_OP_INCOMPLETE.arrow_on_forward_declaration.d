/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = (struct nosuch *)0;
	trace(x->a);
}
