/* SPDX-License-Identifier: MIT */
BEGIN
{
	printf("");
}
