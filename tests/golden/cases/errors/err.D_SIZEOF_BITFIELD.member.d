/* SPDX-License-Identifier: MIT */
/* A bit-field has no size in bytes. */
struct flags {
	int on : 1;
	int mode : 3;
} f;
BEGIN
{
	trace(sizeof (f.mode));
}
