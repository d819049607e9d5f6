/* SPDX-License-Identifier: MIT */
struct point {
	int x;
};
struct point {
	int y;
};

BEGIN
{
	exit(0);
}
