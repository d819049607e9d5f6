/* SPDX-License-Identifier: MIT */
/* Negative values fall in the buckets below zero, labelled -1, -2, -4 ... */
#pragma D option quiet

BEGIN
{
	@ = quantize(-3);
	@ = quantize(-1);
	@ = quantize(0);
	exit(0);
}
