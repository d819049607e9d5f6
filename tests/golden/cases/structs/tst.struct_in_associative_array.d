/* SPDX-License-Identifier: MIT */
/* The guide's struct callinfo stored as associative array values. */
#pragma D option quiet

struct callinfo {
	uint64_t ts;
	uint64_t elapsed;
	uint64_t calls;
	size_t maxbytes;
};

struct callinfo i[string];

BEGIN
{
	i["read"].calls++;
	i["read"].calls++;
	i["write"].calls++;
	i["write"].maxbytes = 512;
	printf("%d %d %d\n", i["read"].calls, i["write"].calls,
	    i["write"].maxbytes);
	exit(0);
}
