/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(strlen(1));
}
