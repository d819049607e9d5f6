/* SPDX-License-Identifier: MIT */
/* BEGIN fires first, END last, after exit(). */
#pragma D option quiet

END
{
	printf("end\n");
}

BEGIN
{
	printf("begin\n");
	exit(0);
}
