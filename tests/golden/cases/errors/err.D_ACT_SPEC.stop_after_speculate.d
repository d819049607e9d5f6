/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -w */
BEGIN
{
	speculate(1);
	stop();
}
