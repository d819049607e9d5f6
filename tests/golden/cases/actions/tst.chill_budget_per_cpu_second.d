/* SPDX-License-Identifier: MIT */
/*
 * A CPU may chill at most half a second in each second. A request that
 * would go past that does not spin at all: it is an illegal operation in
 * the chill() action, and the clause's firing is discarded. What was spent
 * before counts: after 300 ms, another 300 ms is refused.
 */
#pragma D option destructive
#pragma D option quiet

BEGIN
{
	chill(600000000);
	printf("not reached: 600 ms is more than the budget\n");
}

BEGIN
{
	chill(300000000);
	printf("300 ms fit in the budget\n");
}

BEGIN
{
	chill(300000000);
	printf("not reached: 300 ms more would pass it\n");
}

BEGIN
{
	exit(0);
}
