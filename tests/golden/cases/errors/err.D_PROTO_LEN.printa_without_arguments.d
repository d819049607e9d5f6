/* SPDX-License-Identifier: MIT */
BEGIN
{
	printa();
}
