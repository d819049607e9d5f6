/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = count();
	trunc(@a, "a");
}
