/* SPDX-License-Identifier: MIT */
struct point {
	int x;
	int x;
};

BEGIN
{
	exit(0);
}
