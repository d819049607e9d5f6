/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(strlen("a", "b"));
}
