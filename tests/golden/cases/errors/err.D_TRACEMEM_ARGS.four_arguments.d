/* SPDX-License-Identifier: MIT */
BEGIN
{
	tracemem(0, 1, 1, 1);
}
