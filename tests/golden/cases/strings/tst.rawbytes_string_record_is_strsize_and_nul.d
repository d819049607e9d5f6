/* SPDX-License-Identifier: MIT */
/*
 * A traced string is recorded as strsize characters followed by a NUL,
 * padded with NULs when shorter; rawbytes shows every byte of the record.
 */
#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=4

BEGIN
{
	trace("wxyz-and-more");
	trace("ab");
	exit(0);
}
