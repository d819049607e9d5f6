/* SPDX-License-Identifier: MIT */
/* -x zdefs is -Z: a description that matches no probe is not an error. */
/* @@runtest-opts: -x zdefs */
#pragma D option quiet

BEGIN,
nosuchprovider:::nosuchprobe
{
	printf("BEGIN fired\n");
	exit(0);
}
