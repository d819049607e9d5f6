/* SPDX-License-Identifier: MIT */
/* Macro arguments expand inside probe descriptions too. */
#pragma D option quiet

/* @@runtest-args: 10ms */
tick-$1
{
	printf("%s\n", probename);
	exit(0);
}
