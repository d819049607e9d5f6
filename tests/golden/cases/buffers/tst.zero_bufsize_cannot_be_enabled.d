/* SPDX-License-Identifier: MIT */
/*
 * A principal buffer of 0 bytes cannot hold what the clause records:
 * dtrace_state_go() refuses a needed buffer under 8 bytes (ENOSPC), which
 * dtrace(1) reports as "Enabling exceeds size of buffer".
 */
/* @@status: 1 */
#pragma D option bufsize=0

BEGIN
{
	exit(0);
}
