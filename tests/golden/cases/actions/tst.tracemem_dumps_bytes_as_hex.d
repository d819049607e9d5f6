/* SPDX-License-Identifier: MIT */
/* tracemem() prints a hex dump with offsets and an ASCII column. */
#pragma D option quiet

BEGIN
{
	this->q = (uint64_t *)alloca(24);
	this->q[0] = 0x6867666564636261;
	this->q[1] = 0x706f6e6d6c6b6a69;
	this->q[2] = 0x0a71;
	tracemem(this->q, 18);
	exit(0);
}
