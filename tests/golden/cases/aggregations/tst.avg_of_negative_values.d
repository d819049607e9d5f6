/* SPDX-License-Identifier: MIT */
/* avg() truncates toward zero as integer division does (tst.avg_neg.d). */
#pragma D option quiet

BEGIN
{
	@ = avg(-5);
	@ = avg(-6);
	@ = avg(-8);
	exit(0);
}
