/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -w */
BEGIN
{
	panic();
}
