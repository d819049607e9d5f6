/* SPDX-License-Identifier: MIT */
struct point {
	int x;
};

BEGIN
{
	trace((struct point)1);
}
