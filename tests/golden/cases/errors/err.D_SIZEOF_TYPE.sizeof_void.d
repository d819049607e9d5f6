/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(sizeof (void));
}
