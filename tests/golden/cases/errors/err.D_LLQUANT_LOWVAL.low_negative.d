/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = llquantize(1, 10, -1, 6, 20);
}
