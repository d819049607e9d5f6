/* SPDX-License-Identifier: MIT */
/* Aggregations print after the END clause has run. */
#pragma D option quiet

BEGIN
{
	@ = count();
	exit(0);
}

END
{
	printf("in END\n");
}
