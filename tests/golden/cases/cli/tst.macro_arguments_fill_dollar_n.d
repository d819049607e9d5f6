/* SPDX-License-Identifier: MIT */
/* Operands after the script are $1, $2 ...; $$n is the string form. */
/* @@runtest-opts: -q */
/* @@runtest-args: 42 hello */
BEGIN
{
	printf("%d %s\n", $1, $$2);
	exit(0);
}
