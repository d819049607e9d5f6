/* SPDX-License-Identifier: MIT */
BEGIN
{
	ustack(1, 2, 3);
}
