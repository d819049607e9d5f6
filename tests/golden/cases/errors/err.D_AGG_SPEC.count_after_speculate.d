/* SPDX-License-Identifier: MIT */
BEGIN
{
	speculate(1);
	@a = count();
}
