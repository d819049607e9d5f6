/* SPDX-License-Identifier: MIT */
struct bits {
	int a : 3;
};
BEGIN
{
	trace(offsetof(struct bits, a));
}
