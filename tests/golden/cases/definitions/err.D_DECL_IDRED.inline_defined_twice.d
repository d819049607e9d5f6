/* SPDX-License-Identifier: MIT */
inline int limit = 4;
inline int limit = 5;

BEGIN
{
	exit(0);
}
