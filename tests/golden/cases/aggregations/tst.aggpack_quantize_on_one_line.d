/* SPDX-License-Identifier: MIT */
/* aggpack prints each quantize on one line. */
#pragma D option quiet
#pragma D option aggpack
#pragma D option encoding=ascii

BEGIN
{
	@["k"] = quantize(1);
	@["k"] = quantize(8);
	exit(0);
}
