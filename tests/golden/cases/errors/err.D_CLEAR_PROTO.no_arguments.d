/* SPDX-License-Identifier: MIT */
BEGIN
{
	clear();
}
