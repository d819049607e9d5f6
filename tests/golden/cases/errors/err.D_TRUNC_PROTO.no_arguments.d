/* SPDX-License-Identifier: MIT */
BEGIN
{
	trunc();
}
