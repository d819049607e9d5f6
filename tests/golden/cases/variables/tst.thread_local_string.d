/* SPDX-License-Identifier: MIT */
/* A thread-local variable may hold a string. */
#pragma D option quiet

BEGIN
{
	self->name = "worker";
	printf("%s %d\n", self->name, strlen(self->name));
	exit(0);
}
