/* SPDX-License-Identifier: MIT */
struct a {
	int x;
}
struct b {
	int y;
};

BEGIN
{
	exit(0);
}
