/* SPDX-License-Identifier: MIT */
/* %lld and %llx print 64-bit values. */
#pragma D option quiet

BEGIN
{
	printf("%lld %llx %llu\n", 0x7fffffffffffffffLL, 0xdeadbeefcafeLL, 18446744073709551615ULL);
	exit(0);
}
