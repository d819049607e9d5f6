/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -C */
/* With -C, the program goes through cpp; __LINE__ counts the script's lines. */
#pragma D option quiet
#define GREETING "preprocessed"

BEGIN
{
	printf("%s %d\n", GREETING, __LINE__);
	exit(0);
}
