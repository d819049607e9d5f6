/* SPDX-License-Identifier: MIT */
/*
 * copyout() writes to the traced process: an expression statement calling
 * it is a destructive action, and a speculative clause may not take one.
 */
char buf[4];

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	copyout(&buf[0], 0x1000, 4);
}
