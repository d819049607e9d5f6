/* SPDX-License-Identifier: MIT */
BEGIN
{
	print((void)0);
}
