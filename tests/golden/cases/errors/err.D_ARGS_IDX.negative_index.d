/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(args[-1]);
}
