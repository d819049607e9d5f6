/* SPDX-License-Identifier: MIT */
#pragma D option nosuchoption
BEGIN
{
	exit(0);
}
