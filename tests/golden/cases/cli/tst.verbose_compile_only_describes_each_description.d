/* SPDX-License-Identifier: MIT */
/*
 * -e -v: the stability report, then each description as written and the
 * attributes and argument types of the probe it names.
 */
/* @@runtest-opts: -e -v */
dtrace:::BEGIN
{
	exit(0);
}

:::END
{
	trace(timestamp);
}
