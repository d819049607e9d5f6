/* SPDX-License-Identifier: MIT */
/*
 * Without -q, trace() of a string prints two spaces and the string
 * left-justified in 33 columns (dt_print_bytes() with width -33).
 */
BEGIN
{
	trace("abc");
}

BEGIN
{
	exit(0);
}
