/* SPDX-License-Identifier: MIT */
struct bits {
	char c : 9;
};
BEGIN
{
	exit(0);
}
