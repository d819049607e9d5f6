/* SPDX-License-Identifier: MIT */
/* $$1 stands for the first operand as a string constant. */
#pragma D option quiet

/* @@runtest-args: hello 42 */
BEGIN
{
	printf("%s %d %s\n", $$1, strlen($$1), $$2);
	exit(0);
}
