/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 25);
}
