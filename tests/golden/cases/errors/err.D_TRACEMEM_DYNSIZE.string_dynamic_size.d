/* SPDX-License-Identifier: MIT */
BEGIN
{
	tracemem(0, 8, "a");
}
