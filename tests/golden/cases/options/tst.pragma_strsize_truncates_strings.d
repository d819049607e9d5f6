/* SPDX-License-Identifier: MIT */
/* strsize limits string values to that many characters; the NUL is not counted. */
#pragma D option quiet
#pragma D option strsize=4

BEGIN
{
	printf("%s\n", "abcdefgh");
	exit(0);
}
