/* SPDX-License-Identifier: MIT */
#pragma D option quiet

BEGIN
{
	printf("%s %s %s\n", lltostr(-42), lltostr(0), lltostr(1234567890123));
	exit(0);
}
