/* SPDX-License-Identifier: MIT */
/* A preprocessor that fails (here false(1)) stops the compilation. */
/* @@runtest-opts: -C -x cpppath=/bin/false */
/* @@status: 1 */

BEGIN
{
	exit(0);
}
