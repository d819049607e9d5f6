/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = llquantize(1, 1, 0, 6, 20);
}
