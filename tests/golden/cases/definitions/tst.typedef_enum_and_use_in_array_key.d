/* SPDX-License-Identifier: MIT */
/* An enum typedef used as a variable type and array key. */
#pragma D option quiet

typedef enum { OFF, ON } state_t;

state_t s;

BEGIN
{
	s = ON;
	count[s] = 5;
	count[OFF] = 1;
	printf("%d %d %d %d\n", s, count[ON], count[OFF], sizeof (state_t));
	exit(0);
}
