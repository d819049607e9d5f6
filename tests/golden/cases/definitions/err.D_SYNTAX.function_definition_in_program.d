/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -C */
/* D has no functions: a definition in the program's own text is an error. */
int twice(int x) { return 2 * x; }

BEGIN
{
	exit(0);
}
