/* SPDX-License-Identifier: MIT */
/* A keyed quantize prints each key on its own line above its histogram. */
#pragma D option quiet

BEGIN
{
	@["one"] = quantize(1);
	@["two"] = quantize(2);
	@["two"] = quantize(2);
	exit(0);
}
