/* SPDX-License-Identifier: MIT */
inline int x = args[0];

BEGIN
{
	exit(0);
}
