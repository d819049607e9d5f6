/* SPDX-License-Identifier: MIT */
BEGIN
{
	normalize(1, 2);
}
