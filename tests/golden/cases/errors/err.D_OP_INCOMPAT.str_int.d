/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 1;
	x = "one";
}
