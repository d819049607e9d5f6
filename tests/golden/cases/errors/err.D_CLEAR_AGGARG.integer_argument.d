/* SPDX-License-Identifier: MIT */
BEGIN
{
	clear(1);
}
