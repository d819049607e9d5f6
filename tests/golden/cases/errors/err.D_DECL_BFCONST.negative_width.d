/* SPDX-License-Identifier: MIT */
struct bits {
	int x : -1;
};
BEGIN
{
	exit(0);
}
