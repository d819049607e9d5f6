/* SPDX-License-Identifier: MIT */
/* NULL is an alias for address 0. */
#pragma D option quiet

BEGIN
{
	p = (int *)NULL;
	printf("%d %d %d\n", p == NULL, NULL == 0, sizeof (NULL));
	exit(0);
}
