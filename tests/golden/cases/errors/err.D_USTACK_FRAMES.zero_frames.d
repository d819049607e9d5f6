/* SPDX-License-Identifier: MIT */
BEGIN
{
	ustack(0);
}
