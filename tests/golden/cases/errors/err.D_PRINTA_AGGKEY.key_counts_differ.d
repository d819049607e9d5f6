/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a[1] = count();
	@b[1, 2] = count();
	printa(@a, @b);
}
