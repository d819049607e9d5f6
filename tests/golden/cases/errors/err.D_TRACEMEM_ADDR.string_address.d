/* SPDX-License-Identifier: MIT */
BEGIN
{
	tracemem("a", 1);
}
