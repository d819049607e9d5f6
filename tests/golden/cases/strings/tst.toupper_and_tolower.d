/* SPDX-License-Identifier: MIT */
#pragma D option quiet

BEGIN
{
	printf("%s %s\n", toupper("Hello"), tolower("HeLLo"));
	exit(0);
}
