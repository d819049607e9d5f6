/* SPDX-License-Identifier: MIT */
/* cpppath (as define, incdir, undef, ldpath, stdc) cannot be set by a pragma. */

#pragma D option cpppath=/usr/bin/cpp

BEGIN
{
	exit(0);
}
