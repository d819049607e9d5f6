/* SPDX-License-Identifier: MIT */
/* stringof turns a char pointer to scratch memory into a string. */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(4);
	p[0] = 'a';
	p[1] = 'b';
	p[2] = 'c';
	p[3] = '\0';
	printf("%s %d\n", stringof(p), strlen(stringof(p)));
	exit(0);
}
