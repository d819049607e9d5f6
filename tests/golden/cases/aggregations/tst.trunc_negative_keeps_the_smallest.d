/* SPDX-License-Identifier: MIT */
/* trunc(@, -N) keeps the N smallest values. */
#pragma D option quiet

BEGIN
{
	i = 0;
}

tick-1ms
/i < 10/
{
	@[100 + i] = sum(1000 + i);
	i++;
}

tick-1ms
/i == 10/
{
	trunc(@, -3);
	exit(0);
}
