/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = lquantize(1, 0, 1000000, 1);
}
