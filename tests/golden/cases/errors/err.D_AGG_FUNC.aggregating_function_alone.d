/* SPDX-License-Identifier: MIT */
BEGIN
{
	count();
}
