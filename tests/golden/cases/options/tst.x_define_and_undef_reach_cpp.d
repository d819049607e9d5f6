/* SPDX-License-Identifier: MIT */
/* -x define=, -x undef= and -x incdir= are -D, -U and -I given as options. */
/* @@runtest-opts: -C -x define=ANSWER=42 -x define=GONE -x undef=GONE */
#pragma D option quiet

BEGIN
{
	printf("%d\n", ANSWER);
#ifdef GONE
	printf("GONE is still defined\n");
#endif
	exit(0);
}
