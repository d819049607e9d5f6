/* SPDX-License-Identifier: MIT */
/* cpu is the CPU the probe fired on: the default output's CPU column. */
BEGIN
{
	trace(cpu);
	exit(0);
}
