/* SPDX-License-Identifier: MIT */
/* A format string alone: printa() needs an aggregation after it. */
BEGIN
{
	printa("%@d\n");
}
