/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = (int *)0;
	trace(x->a);
}
