/* SPDX-License-Identifier: MIT */
/* lltostr converts integers, optionally in another base. */
#pragma D option quiet

BEGIN
{
	printf("%s %s %s\n", lltostr(0), lltostr(-1234), lltostr(9223372036854775807));
	printf("%s %s\n", lltostr(255, 16), lltostr(8, 2));
	exit(0);
}
