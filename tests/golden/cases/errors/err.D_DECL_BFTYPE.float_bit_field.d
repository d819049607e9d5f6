/* SPDX-License-Identifier: MIT */
struct bits {
	float f : 1;
};
BEGIN
{
	exit(0);
}
