/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace('abcdefghi');
}
