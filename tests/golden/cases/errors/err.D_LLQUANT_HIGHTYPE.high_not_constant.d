/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 6;
	@a = llquantize(1, 10, 0, x, 20);
}
