/* SPDX-License-Identifier: MIT */

/* An inline may not take a subroutine's name; the message says what it was. */
inline int strlen = 3;

BEGIN
{
	exit(0);
}
