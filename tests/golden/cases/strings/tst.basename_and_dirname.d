/* SPDX-License-Identifier: MIT */
/* As basename(1) and dirname(1). */
#pragma D option quiet

BEGIN
{
	printf("%s %s\n", basename("/usr/lib/libc.so.1"), dirname("/usr/lib/libc.so.1"));
	printf("%s %s\n", basename("/"), dirname("file"));
	exit(0);
}
