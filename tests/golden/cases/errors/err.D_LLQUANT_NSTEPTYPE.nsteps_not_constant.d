/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 20;
	@a = llquantize(1, 10, 0, 6, x);
}
