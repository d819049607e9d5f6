/* SPDX-License-Identifier: MIT */
/* A void pointer converts to and from other pointer types by cast. */
#pragma D option quiet

BEGIN
{
	v = (void *)0x2000;
	ip = (int *)v;
	printf("%x %x %d\n", (uintptr_t)v, (uintptr_t)(ip + 1), sizeof (*ip));
	exit(0);
}
