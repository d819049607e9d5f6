/* SPDX-License-Identifier: MIT */
inline int n = "many";

BEGIN
{
	exit(0);
}
