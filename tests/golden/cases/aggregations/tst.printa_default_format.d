/* SPDX-License-Identifier: MIT */
/* printa() without a format: a newline, then the entries as at exit. */
#pragma D option quiet

BEGIN
{
	@[1] = sum(10);
	@[2] = sum(5);
	printa(@);
	printf("done\n");
	exit(0);
}
