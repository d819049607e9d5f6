/* SPDX-License-Identifier: MIT */
BEGIN
{
	printf("%d\n", "a");
}
