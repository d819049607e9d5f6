/* SPDX-License-Identifier: MIT */
/* strlen counts characters up to the terminating NUL. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", strlen(""), strlen("a"), strlen("hello, world"));
	exit(0);
}
