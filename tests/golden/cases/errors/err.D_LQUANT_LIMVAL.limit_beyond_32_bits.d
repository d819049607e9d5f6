/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = lquantize(1, 0, 0x100000000, 1);
}
