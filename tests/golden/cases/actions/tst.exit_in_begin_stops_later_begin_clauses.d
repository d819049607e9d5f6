/* SPDX-License-Identifier: MIT */
/* exit() takes effect after the current firing: later BEGIN clauses still run. */
#pragma D option quiet

BEGIN
{
	printf("first\n");
	exit(3);
}

BEGIN
{
	printf("second\n");
}

END
{
	printf("end\n");
}
/* @@status: 3 */
