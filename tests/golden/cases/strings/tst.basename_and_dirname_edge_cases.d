/* SPDX-License-Identifier: MIT */
/* basename and dirname on roots, trailing slashes and bare names. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", basename("/"), dirname("/"));
	printf("[%s] [%s]\n", basename("/usr/lib/"), dirname("/usr/lib/"));
	printf("[%s] [%s]\n", basename("file"), dirname("file"));
	printf("[%s] [%s]\n", basename("/usr"), dirname("/usr"));
	exit(0);
}
