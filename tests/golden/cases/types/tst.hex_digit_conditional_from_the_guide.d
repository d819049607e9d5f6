/* SPDX-License-Identifier: MIT */
/* The guide's ?: example converting a hex digit character to its value. */
#pragma D option quiet

BEGIN
{
	c = 'b';
	hexval = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'z') ?
	    c + 10 - 'a' : c + 10 - 'A';
	printf("%d\n", hexval);
	c = 'F';
	hexval = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'z') ?
	    c + 10 - 'a' : c + 10 - 'A';
	printf("%d\n", hexval);
	exit(0);
}
