/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(08);
}
