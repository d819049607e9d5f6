/* SPDX-License-Identifier: MIT */
/* tick-N fires every N until exit(); later clauses see earlier stores. */
#pragma D option quiet

BEGIN
{
	i = 0;
}

tick-10ms
/i < 3/
{
	i++;
	printf("tick %d\n", i);
}

tick-10ms
/i == 3/
{
	exit(0);
}
