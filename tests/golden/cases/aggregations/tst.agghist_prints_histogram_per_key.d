/* SPDX-License-Identifier: MIT */
/* agghist prints count/sum aggregations as one histogram over keys. */
#pragma D option quiet
#pragma D option agghist

BEGIN
{
	@["a"] = sum(1);
	@["b"] = sum(3);
	exit(0);
}
