/* SPDX-License-Identifier: MIT */
/* printf() yields no value: a conversion given it sees an argument of type void. */
BEGIN
{
	printf("%d\n", printf("inner"));
}
