/* SPDX-License-Identifier: MIT */
BEGIN
{
	printf("%d\n", 1, 2);
}
