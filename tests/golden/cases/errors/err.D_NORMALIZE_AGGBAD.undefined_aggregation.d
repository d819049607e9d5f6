/* SPDX-License-Identifier: MIT */
BEGIN
{
	normalize(@nosuch, 2);
}
