/* SPDX-License-Identifier: MIT */
/* Output without a trailing newline is printed as is. */
#pragma D option quiet

BEGIN
{
	printf("no newline");
	exit(0);
}
