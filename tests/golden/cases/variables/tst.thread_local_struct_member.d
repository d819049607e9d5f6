/* SPDX-License-Identifier: MIT */
/* Struct-valued thread-local variables hold members. */
#pragma D option quiet

struct info {
	int calls;
	int bytes;
};

self struct info si;

BEGIN
{
	self->si.calls = 2;
	self->si.bytes += 100;
	self->si.calls++;
	printf("%d %d\n", self->si.calls, self->si.bytes);
	exit(0);
}
