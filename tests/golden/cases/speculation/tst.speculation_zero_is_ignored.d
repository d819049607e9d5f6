/* SPDX-License-Identifier: MIT */
/* speculate(0) drops the rest of the clause silently. */
#pragma D option quiet

BEGIN
{
	speculate(0);
	printf("dropped\n");
}

BEGIN
{
	printf("kept\n");
	exit(0);
}
