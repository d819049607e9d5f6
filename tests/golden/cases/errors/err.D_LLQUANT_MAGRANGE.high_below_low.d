/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = llquantize(1, 10, 6, 2, 20);
}
