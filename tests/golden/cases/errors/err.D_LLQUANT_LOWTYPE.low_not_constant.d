/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 0;
	@a = llquantize(1, 10, x, 6, 20);
}
