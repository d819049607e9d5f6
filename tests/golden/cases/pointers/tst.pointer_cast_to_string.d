/* SPDX-License-Identifier: MIT */
/* A pointer cast to string reads the characters it points to. */
#pragma D option quiet

BEGIN
{
	p = alloca(16);
	bcopy("from scratch", p, 13);
	trace((string)p);
	printf("\n%s\n", (string)p);
	s = (string)p;
	printf("%d\n", strlen(s));
	exit(0);
}
