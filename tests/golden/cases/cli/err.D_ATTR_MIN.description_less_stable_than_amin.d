/* SPDX-License-Identifier: MIT */
/*
 * amin refuses a clause whose description is less stable than it: BEGIN
 * without its provider is Unstable. The clause is named at its last line.
 */
#pragma D option amin=Evolving/Evolving/Common

BEGIN
{
	exit(0);
}
