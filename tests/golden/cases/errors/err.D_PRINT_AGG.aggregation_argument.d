/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = count();
	print(@a);
}
