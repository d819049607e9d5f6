/* SPDX-License-Identifier: MIT */
struct point {
	int x;
	int y;
};
struct point p;

BEGIN
{
	trace(p.z);
}
