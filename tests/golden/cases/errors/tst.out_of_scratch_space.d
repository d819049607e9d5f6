/* SPDX-License-Identifier: MIT */
/* alloca() beyond the scratch space faults with "out of scratch space". */
#pragma D option quiet

BEGIN
{
	this->p = alloca(1024 * 1024 * 64);
	trace(1);
}

BEGIN
{
	exit(0);
}
