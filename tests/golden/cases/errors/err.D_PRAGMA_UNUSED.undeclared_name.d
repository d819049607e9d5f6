/* SPDX-License-Identifier: MIT */
/* #pragma D attributes must name a provider or a declared identifier. */
#pragma D attributes Stable/Stable/Common not_declared_anywhere
BEGIN
{
	exit(0);
}
