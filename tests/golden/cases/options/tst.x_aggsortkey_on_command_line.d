/* SPDX-License-Identifier: MIT */
/* -x aggsortkey works as the pragma does. */
/* @@runtest-opts: -x aggsortkey */
#pragma D option quiet

BEGIN
{
	@["b"] = sum(1);
	@["a"] = sum(2);
	exit(0);
}
