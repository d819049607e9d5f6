/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = count();
	x = @a + 1;
}
