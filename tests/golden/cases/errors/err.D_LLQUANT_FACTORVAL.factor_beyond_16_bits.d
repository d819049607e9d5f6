/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = llquantize(1, 70000, 0, 6, 20);
}
