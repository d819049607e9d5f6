/* SPDX-License-Identifier: MIT */
/*
 * Without -q, trace() of an int prints " %8d" and of a 64-bit value
 * " %16lld" after the probe columns, then the firing's newline.
 */
BEGIN
{
	trace(42);
	trace((long long)-7);
}

BEGIN
{
	exit(0);
}
