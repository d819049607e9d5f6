/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(*(void *)0);
}
