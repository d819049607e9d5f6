/* SPDX-License-Identifier: MIT */
/* %Y formats nanoseconds since the epoch as a date and time (TZ=UTC here). */
#pragma D option quiet

BEGIN
{
	printf("%Y\n", (uint64_t)0);
	printf("%Y\n", (uint64_t)1000000000 * 86400 * 365);
	exit(0);
}
