/* SPDX-License-Identifier: MIT */
/* Storing 0 deletes a dynamic variable; reading it again gives 0. */
#pragma D option quiet

BEGIN
{
	a[1] = 5;
	a[1] = 0;
	self->x = 7;
	self->x = 0;
	printf("%d %d\n", a[1], self->x);
	exit(0);
}
