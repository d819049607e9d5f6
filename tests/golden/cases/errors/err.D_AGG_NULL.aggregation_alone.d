/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a;
}
