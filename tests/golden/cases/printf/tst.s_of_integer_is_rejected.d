/* SPDX-License-Identifier: MIT */
/* %s of an integer is a compile error. */
BEGIN
{
	printf("%s\n", 1);
}
/* @@status: 1 */
