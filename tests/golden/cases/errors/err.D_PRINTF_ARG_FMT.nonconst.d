/* SPDX-License-Identifier: MIT */
BEGIN
{
	printf(1);
}
