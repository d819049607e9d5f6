/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 10;
	@a = llquantize(1, x, 0, 6, 20);
}
