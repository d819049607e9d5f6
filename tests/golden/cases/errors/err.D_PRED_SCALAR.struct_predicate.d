/* SPDX-License-Identifier: MIT */
struct point {
	int x;
};
struct point p;

BEGIN
/p/
{
	exit(0);
}
