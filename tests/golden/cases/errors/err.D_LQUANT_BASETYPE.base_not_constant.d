/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 1;
	@a = lquantize(1, x, 10, 1);
}
