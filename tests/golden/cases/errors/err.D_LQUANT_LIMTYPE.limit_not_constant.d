/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 1;
	@a = lquantize(1, 0, x, 1);
}
