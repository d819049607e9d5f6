/* SPDX-License-Identifier: MIT */
/* The link modes are kernel, primary, dynamic and static; anything else is refused. */
/* @@runtest-opts: -x linkmode=foo */
/* @@status: 1 */
BEGIN
{
	exit(0);
}
