/* SPDX-License-Identifier: MIT */
/*
 * chill(ns) spins for ns nanoseconds where the probe fired (destructive:
 * it needs -w); timestamp, which otherwise keeps one value for a whole
 * firing, is read again after a chill().
 */
#pragma D option destructive
#pragma D option quiet

BEGIN
{
	before = timestamp;
	chill(30000000);
	waited = timestamp - before;
	printf("%s\n", waited >= 30000000 ? "timestamp moved by 30 ms or more" : "too short");
	exit(0);
}
