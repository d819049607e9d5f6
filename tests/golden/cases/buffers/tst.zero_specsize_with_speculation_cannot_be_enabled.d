/* SPDX-License-Identifier: MIT */
/*
 * A program that speculates needs speculation buffers of at least 8
 * bytes; specsize=0 is refused when tracing starts, in the words of
 * EDT_BUFTOOSMALL.
 */
/* @@status: 1 */
#pragma D option specsize=0

BEGIN
{
	self->spec = speculation();
	speculate(self->spec);
	printf("never recorded\n");
}

BEGIN
{
	exit(0);
}
