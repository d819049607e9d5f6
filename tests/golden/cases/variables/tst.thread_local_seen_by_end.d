/* SPDX-License-Identifier: MIT */
/* BEGIN and END fire in the same (dtrace) thread: self-> carries over. */
#pragma D option quiet

BEGIN
{
	self->x = 5;
	exit(0);
}

END
{
	printf("%d\n", self->x);
}
