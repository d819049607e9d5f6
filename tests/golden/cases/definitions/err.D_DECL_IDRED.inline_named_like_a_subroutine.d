/* SPDX-License-Identifier: MIT */
inline int strlen = 3;

BEGIN
{
	exit(0);
}
