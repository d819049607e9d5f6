/* SPDX-License-Identifier: MIT */
BEGIN
/"a" && "b"/
{
	exit(0);
}
