/* SPDX-License-Identifier: MIT */
/*
 * aggsize bounds the aggregation buffer between two snapshots: a key that
 * does not fit is an aggregation drop, counted per CPU. With -x droptags
 * each drop message begins with its tag (illumos dt_droptag()).
 * Each key here takes its 256-byte string, the 8-byte count and the
 * buffer's own bookkeeping: one fits in 512 bytes, the other two do not.
 */
/* @@runtest-opts: -x droptags */
#pragma D option quiet
#pragma D option aggsize=512
#pragma D option strsize=256

BEGIN
{
	@["first"] = count();
	@["second"] = count();
	@["third"] = count();
	exit(0);
}
