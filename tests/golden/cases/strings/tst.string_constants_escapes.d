/* SPDX-License-Identifier: MIT */
/* String constants with escapes; a string is a value, not a pointer. */
#pragma D option quiet

BEGIN
{
	s = "tab\there";
	printf("%s|%d\n", s, strlen(s));
	printf("%s\n", "quote\"back\\slash");
	exit(0);
}
