/* SPDX-License-Identifier: MIT */
/* A conversion printf() does not define is a syntax error in the format. */
BEGIN
{
	printf("%q\n", 1);
}
