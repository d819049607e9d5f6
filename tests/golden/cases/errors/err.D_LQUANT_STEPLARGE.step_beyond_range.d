/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = lquantize(1, 0, 10, 20);
}
