/* SPDX-License-Identifier: MIT */
BEGIN
{
	timestamp = 1;
}
