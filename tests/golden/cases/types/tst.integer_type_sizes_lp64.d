/* SPDX-License-Identifier: MIT */
/* Integer types and their sizes in bytes (LP64 data model). */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (char), sizeof (short), sizeof (int),
	    sizeof (long), sizeof (long long));
	printf("%d %d %d %d\n", sizeof (int8_t), sizeof (int16_t),
	    sizeof (int32_t), sizeof (int64_t));
	printf("%d %d %d %d\n", sizeof (uint8_t), sizeof (uint16_t),
	    sizeof (uint32_t), sizeof (uint64_t));
	printf("%d %d %d\n", sizeof (intptr_t), sizeof (uintptr_t), sizeof (void *));
	exit(0);
}
