/* SPDX-License-Identifier: MIT */
/* dtrace:::BEGIN has no typed arguments: args[0] is out of range. */
BEGIN
{
	trace(args[0]);
}
