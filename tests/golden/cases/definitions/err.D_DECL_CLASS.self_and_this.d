/* SPDX-License-Identifier: MIT */
self this int x;

BEGIN
{
	exit(0);
}
