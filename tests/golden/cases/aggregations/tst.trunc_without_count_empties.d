/* SPDX-License-Identifier: MIT */
/* trunc(@) removes every entry; nothing is printed for it at exit. */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@b["y"] = count();
	trunc(@a);
	exit(0);
}
