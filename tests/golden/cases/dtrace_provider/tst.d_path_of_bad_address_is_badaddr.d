/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * d_path() reads the struct path it is given: an address that holds none
 * is an invalid address fault, with that address as ERROR's arg5 (illval)
 * and DTRACEFLT_BADADDR as arg4, like any load from it.
 */
ERROR
{
	printf("fault %d (badaddr %d) at 0x%x\n", arg4, DTRACEFLT_BADADDR, arg5);
}

BEGIN
{
	trace(d_path((struct path *)0x40));
}

BEGIN
{
	exit(0);
}
