/* SPDX-License-Identifier: MIT */
/* Thread-local variables read zero until assigned, and may be declared. */
#pragma D option quiet

self int x;

BEGIN
{
	printf("%d %d\n", self->x, self->y);
	self->x = 7;
	self->y = self->x * 2;
	printf("%d %d\n", self->x, self->y);
	self->x = 0;
	printf("%d\n", self->x);
	exit(0);
}
