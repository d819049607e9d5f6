/* SPDX-License-Identifier: MIT */
int v;

enum e {
	A = v
};

BEGIN
{
	exit(0);
}
