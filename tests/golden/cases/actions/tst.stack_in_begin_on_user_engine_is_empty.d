/* SPDX-License-Identifier: MIT */
/* The user engine has no kernel stack in BEGIN: stack() prints just its leading newline. */
#pragma D option quiet

BEGIN
{
	stack();
	printf("done\n");
	exit(0);
}
