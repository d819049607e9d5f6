/* SPDX-License-Identifier: MIT */
/* The ISO C modes are a, c, s and t; anything else is refused. */
/* @@runtest-opts: -x stdc=k */
/* @@status: 1 */
BEGIN
{
	exit(0);
}
