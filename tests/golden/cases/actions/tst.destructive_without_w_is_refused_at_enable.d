/* SPDX-License-Identifier: MIT */
/*
 * A destructive action without -w compiles, and enabling it fails as
 * illumos' dtrace_go() reports the kernel's refusal.
 */
BEGIN
{
	system("echo not run");
	exit(0);
}
/* @@status: 1 */
