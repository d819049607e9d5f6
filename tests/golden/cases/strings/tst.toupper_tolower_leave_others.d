/* SPDX-License-Identifier: MIT */
/* toupper and tolower change letters only. */
#pragma D option quiet

BEGIN
{
	printf("%s %s\n", toupper("Hello, World 42!"), tolower("Hello, World 42!"));
	exit(0);
}
