/* SPDX-License-Identifier: MIT */

/*
 * vtimestamp, like timestamp, is the thread's virtual time at the probe:
 * the clause's own work does not move it within one firing.
 */
#pragma D option quiet

BEGIN
{
	self->t = vtimestamp;
	n = 0;
	n += strlen(strjoin("spend", "some time"));
	printf("%d %d\n", vtimestamp - self->t, vtimestamp > 0);
	exit(0);
}
