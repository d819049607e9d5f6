/* SPDX-License-Identifier: MIT */

/* An inline's value must convert to its declared type. */
inline int nitems = "many";

BEGIN
{
	exit(0);
}
