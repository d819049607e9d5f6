/* SPDX-License-Identifier: MIT */

/* Declarations that are fine leave the syntax error to be reported. */
struct point {
	int x;
	int y;
};

struct point p;

BEGIN
/1 2/
{
	exit(0);
}
