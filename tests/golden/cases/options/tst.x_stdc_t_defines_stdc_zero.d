/* SPDX-License-Identifier: MIT */
/* -X t (transition mode) defines __STDC__ as 0. */
/* @@runtest-opts: -C -X t */
#pragma D option quiet

BEGIN
{
	printf("__STDC__ = %d\n", __STDC__);
	exit(0);
}
