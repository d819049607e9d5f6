/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = 1;
}
