/* SPDX-License-Identifier: MIT */
/* Keys may be strings, integers or tuples; a missing element reads 0. */
#pragma D option quiet

BEGIN
{
	a["x"] = 1;
	a["y"] = 2;
	b[1, "z"] = 3;
	printf("%d %d %d %d\n", a["x"], a["y"], b[1, "z"], a["none"]);
	exit(0);
}
