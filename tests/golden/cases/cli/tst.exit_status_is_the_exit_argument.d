/* SPDX-License-Identifier: MIT */
/* exit(n) makes dtrace(1) exit with status n. */
/* @@runtest-opts: -q */
/* @@status: 3 */
BEGIN
{
	exit(3);
}
