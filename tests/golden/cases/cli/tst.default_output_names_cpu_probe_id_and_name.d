/* SPDX-License-Identifier: MIT */
/*
 * Without -q: the "matched" notice on stderr, the CPU/ID/FUNCTION:NAME
 * heading, one line per firing (its exit() record prints nothing), then
 * dtrace(1)'s final newline: a blank line.
 */
BEGIN
{
	exit(0);
}
