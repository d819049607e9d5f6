/* SPDX-License-Identifier: MIT */
/* A principal buffer of 0 bytes cannot be allocated. */
/* @@status: 1 */
#pragma D option bufsize=0

BEGIN
{
	exit(0);
}
