/* SPDX-License-Identifier: MIT */
/* An inline names a constant expression. */
#pragma D option quiet

inline int MAXLEN = 42;
inline int TWICE = MAXLEN * 2;

BEGIN
{
	printf("%d %d\n", MAXLEN, TWICE);
	exit(0);
}
