/* SPDX-License-Identifier: MIT */
/* A keyed lquantize prints the integer key line, then the histogram. */
#pragma D option quiet

BEGIN
{
	@[3] = lquantize(1, 0, 4, 1);
	exit(0);
}
