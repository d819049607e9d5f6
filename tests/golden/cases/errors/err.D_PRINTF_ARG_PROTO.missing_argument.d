/* SPDX-License-Identifier: MIT */
BEGIN
{
	printf("%d %d\n", 1);
}
