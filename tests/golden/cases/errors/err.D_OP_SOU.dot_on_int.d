/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 1;
	trace(x.y);
}
