/* SPDX-License-Identifier: MIT */
struct later;

struct holder {
	struct later l;
	int n;
};

BEGIN
{
	exit(0);
}
