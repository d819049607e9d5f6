/* SPDX-License-Identifier: MIT */
/* cleanpath removes ./, ../ and repeated slashes. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", cleanpath("/foo/bar/../baz"));
	printf("%s\n", cleanpath("/foo//bar/./baz"));
	printf("%s\n", cleanpath("/a/b/c/../../d"));
	exit(0);
}
