/* SPDX-License-Identifier: MIT */

/*
 * unistd.d: arg4 of the ERROR probe is a fault code, named DTRACEFLT_*;
 * a load from address 16 is a bad address.
 */
#pragma D option quiet

BEGIN
{
	trace(*(int *)16);
}

ERROR
/arg4 == DTRACEFLT_BADADDR/
{
	printf("bad address %d (DTRACEFLT_BADADDR is %d, DIVZERO %d, LIBRARY %d)\n",
	    arg5, DTRACEFLT_BADADDR, DTRACEFLT_DIVZERO, DTRACEFLT_LIBRARY);
	exit(0);
}
