/* SPDX-License-Identifier: MIT */
/*
 * With strsize=5 every string result holds up to five characters (the NUL
 * after them is not counted): a stored variable, substr(), strtok(),
 * strjoin() and strlen() all agree on that bound.
 */
#pragma D option quiet
#pragma D option strsize=5

BEGIN
{
	s = "abcdefgh";
	printf("[%s] %d\n", s, strlen(s));
	printf("[%s]\n", substr("abcdefgh", 1));
	printf("[%s]\n", substr("abcdefgh", 0, 9));
	printf("[%s]\n", strtok("abcdefgh", ","));
	printf("[%s]\n", strjoin("ab", "cdefgh"));
	printf("[%s]\n", strjoin(s, s));
	printf("[%s]\n", substr(strjoin("xy", s), 2));
	exit(0);
}
