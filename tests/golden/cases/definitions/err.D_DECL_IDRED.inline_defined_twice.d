/* SPDX-License-Identifier: MIT */

/* The second definition of an inline is refused, naming the first's kind. */
inline int limit = 10;
inline int limit = 20;

BEGIN
{
	exit(0);
}
