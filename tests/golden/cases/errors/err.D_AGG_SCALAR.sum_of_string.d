/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = sum("a");
}
