/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace("abc
	");
}
