/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(1)
	trace(2);
}
