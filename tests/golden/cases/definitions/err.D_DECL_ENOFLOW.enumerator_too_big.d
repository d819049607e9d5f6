/* SPDX-License-Identifier: MIT */
enum big {
	HUGE = 4294967296
};

BEGIN
{
	exit(0);
}
