/* SPDX-License-Identifier: MIT */
/*
 * -X s (or -x stdc=s) preprocesses as K&R C: __STDC__ is not defined.
 * -X a and t define it as 0, -X c as 1.
 */
/* @@runtest-opts: -C -x stdc=s */
#pragma D option quiet

BEGIN
{
#ifdef __STDC__
	printf("__STDC__ is defined\n");
#else
	printf("__STDC__ is not defined\n");
#endif
	exit(0);
}
