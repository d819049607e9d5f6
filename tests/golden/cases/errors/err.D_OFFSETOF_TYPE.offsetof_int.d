/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(offsetof(int, x));
}
