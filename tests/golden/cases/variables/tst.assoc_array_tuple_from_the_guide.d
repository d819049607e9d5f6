/* SPDX-License-Identifier: MIT */
/* The guide's associative array a[123, "hello"] = 456. */
#pragma D option quiet

BEGIN
{
	a[123, "hello"] = 456;
	a[0, "hello"] = a[123, "hello"] + 1;
	printf("%d %d %d\n", a[123, "hello"], a[0, "hello"], a[1, "hello"]);
	exit(0);
}
