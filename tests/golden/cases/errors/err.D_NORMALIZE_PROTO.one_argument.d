/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = count();
	normalize(@a);
}
