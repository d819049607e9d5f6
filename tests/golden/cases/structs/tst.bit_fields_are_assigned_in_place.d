/* SPDX-License-Identifier: MIT */
/* Bit-fields of D variables are assigned, incremented and compound-assigned in place. */
#pragma D option quiet
struct flags { unsigned int lo : 3; int mid : 5; unsigned int hi : 12; unsigned char c; } f;
BEGIN
{
	f.c = 9;
	f.lo = 5; f.mid = -3; f.hi = 4095;
	printf("%d %d %d %d\n", f.lo, f.mid, f.hi, f.c);
	f.lo = 9;
	f.mid++;
	f.hi += 2;
	printf("%d %d %d %d\n", f.lo, f.mid, f.hi, f.c);
	exit(0);
}
