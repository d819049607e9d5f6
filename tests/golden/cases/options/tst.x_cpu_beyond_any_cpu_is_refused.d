/* SPDX-License-Identifier: MIT */
/* -x cpu names the one CPU tracing runs on: a CPU that cannot exist is refused. */
/* @@runtest-opts: -x cpu=100000 */
/* @@status: 1 */
BEGIN
{
	exit(0);
}
