/* SPDX-License-Identifier: MIT */
BEGIN
{
	trunc(1);
}
