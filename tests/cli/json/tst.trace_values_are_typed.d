/* SPDX-License-Identifier: MIT */
/*
 * trace() values keep their D type: integers as numbers (signed or not,
 * by size), strings as strings, pointers as "0x..." strings, by-value
 * data as bytes. Without -q, a firing with no output is a record too.
 */
BEGIN
{
	trace(1);
	trace(-2);
	trace((uint8_t)255);
	trace((short)-3);
	trace(0xffffffffffffffffULL);
	trace("a string");
	trace((int *)0x1000);
}

BEGIN
{
}

BEGIN
{
	exit(0);
}
