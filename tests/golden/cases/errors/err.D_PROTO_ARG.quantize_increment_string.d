/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = quantize(1, "a");
}
