/* SPDX-License-Identifier: MIT */
/* strtok(NULL, delims) continues tokenising the previous string, across actions. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strtok("a,b;;c", ",;"));
	printf("%s\n", strtok(NULL, ",;"));
	printf("%s\n", strtok(NULL, ",;"));
	exit(0);
}
