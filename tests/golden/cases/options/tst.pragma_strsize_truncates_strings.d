/* SPDX-License-Identifier: MIT */
/* strsize limits string values, including the terminating NUL. */
#pragma D option quiet
#pragma D option strsize=4

BEGIN
{
	printf("%s\n", "abcdefgh");
	exit(0);
}
