/* SPDX-License-Identifier: MIT */
/* A variable of enum type holds enumerators and has the size of an int. */
#pragma D option quiet

enum state { IDLE, RUNNING, DONE };

enum state s;

BEGIN
{
	s = RUNNING;
	printf("%d %d %d\n", s, s == RUNNING, sizeof (enum state));
	exit(0);
}
