/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = trace(1);
}
