/* SPDX-License-Identifier: MIT */
/* An aggregation is no value for a printf() conversion. */
BEGIN
{
	@n = count();
	printf("%d and %d\n", 1, @n);
}
