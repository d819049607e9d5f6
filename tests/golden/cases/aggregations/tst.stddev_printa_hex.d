/* SPDX-License-Identifier: MIT */
/* stddev() of two values is half their distance (illumos tst.stddev2.d). */
#pragma D option quiet

BEGIN
{
	@b = stddev(0x10); @b = stddev(0x20);
	@d = stddev(0x1000); @d = stddev(0x2000);
	@k = stddev(0x80000000); @k = stddev(0x100000000);
	printa("%9@x\n", @b);
	printa("%9@x\n", @d);
	printa("%9@x\n", @k);
	exit(0);
}
