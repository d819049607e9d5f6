/* SPDX-License-Identifier: MIT */
/* An unknown #pragma D option is an error. */
#pragma D option nosuchoption

BEGIN
{
	exit(0);
}
/* @@status: 1 */
