/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(1));
}
