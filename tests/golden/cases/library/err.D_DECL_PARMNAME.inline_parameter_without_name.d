/* SPDX-License-Identifier: MIT */

/* An inline's parameter is named in its value: a parameter needs a name. */
inline int twice[int] = 2;

BEGIN
{
	exit(0);
}
