/* SPDX-License-Identifier: MIT */
/* Struct elements of a thread-local associative array are created on first write. */
#pragma D option quiet

struct info {
	int calls;
};

self struct info t[int];

BEGIN
{
	self->t[1].calls++;
	self->t[1].calls++;
	self->t[2].calls = 7;
	printf("%d %d\n", self->t[1].calls, self->t[2].calls);
	exit(0);
}
