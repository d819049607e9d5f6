/* SPDX-License-Identifier: MIT */
/* A D-declared struct variable: member assignment and access. */
#pragma D option quiet

struct callinfo {
	uint64_t ts;
	uint64_t elapsed;
	uint64_t calls;
	size_t maxbytes;
};

struct callinfo i;

BEGIN
{
	i.ts = 100;
	i.calls++;
	i.calls++;
	i.elapsed = 250 - i.ts;
	i.maxbytes = 4096;
	printf("%d %d %d %d\n", i.ts, i.elapsed, i.calls, i.maxbytes);
	exit(0);
}
