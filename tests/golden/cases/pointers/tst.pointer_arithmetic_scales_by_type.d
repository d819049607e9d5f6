/* SPDX-License-Identifier: MIT */
/* Adding n to a pointer advances it by n objects of its type. */
#pragma D option quiet

BEGIN
{
	ip = (int *)0x1000;
	lp = (int64_t *)0x1000;
	cp = (char *)0x1000;
	printf("%x %x %x\n", (uintptr_t)(ip + 1), (uintptr_t)(lp + 2),
	    (uintptr_t)(cp + 3));
	printf("%d %d\n", (ip + 5) - ip, (lp + 3) - lp);
	exit(0);
}
