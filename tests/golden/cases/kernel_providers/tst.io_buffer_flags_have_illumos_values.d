/* SPDX-License-Identifier: MIT */

/* io.d's b_flags bits are illumos' (sys/buf.h, io.d). */
/* @@runtest-opts: -q */
BEGIN
{
	printf("B_BUSY %x B_DONE %x B_ERROR %x B_PAGEIO %x\n", B_BUSY, B_DONE, B_ERROR,
	    B_PAGEIO);
	printf("B_PHYS %x B_READ %x B_WRITE %x B_ASYNC %x\n", B_PHYS, B_READ, B_WRITE,
	    B_ASYNC);
	exit(0);
}
