/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(1 ? "a" : 1);
}
