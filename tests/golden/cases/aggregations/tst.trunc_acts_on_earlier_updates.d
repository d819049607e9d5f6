/* SPDX-License-Identifier: MIT */
/*
 * trunc() keeps the largest values of what was aggregated before it; a
 * key aggregated well after it (here half a second, many drains later)
 * starts anew and is not cut by it.
 */
#pragma D option quiet
#pragma D option switchrate=10ms

int n;

tick-10ms
/n >= 1 && n <= 4/
{
	@[n] = sum(10 * n);
}

tick-10ms
/n == 6/
{
	trunc(@, 2);
}

tick-10ms
/n == 50/
{
	@[5] = sum(5);
}

tick-10ms
/n++ == 60/
{
	exit(0);
}
