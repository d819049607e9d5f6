/* SPDX-License-Identifier: MIT */
/* A format that ends inside a conversion is a syntax error in the format. */
BEGIN
{
	printf("total %");
}
