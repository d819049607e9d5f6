/* SPDX-License-Identifier: MIT */
/*
 * A predicate may read a global that only its own clause's actions assign:
 * the clause is checked as a whole, and the variable reads 0 until then.
 */
#pragma D option quiet

tick-1ms
/n < 3/
{
	printf("n = %d\n", n++);
}

tick-1ms
/n == 3/
{
	exit(0);
}
