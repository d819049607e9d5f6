/* SPDX-License-Identifier: MIT */
/* $target is 0 when neither -c nor -p names a process. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", $target);
	exit(0);
}
