/* SPDX-License-Identifier: MIT */
/*
 * A library of a -x libdir directory is compiled whole, used or not, and
 * its error names the file and line ("FILE", line N:) as illumos does.
 */
/* @@runtest-opts: -x libdir=libdir_broken */

BEGIN
{
	exit(0);
}
