/* SPDX-License-Identifier: MIT */
/* An inline may name a string. */
#pragma D option quiet

inline string greeting = "hello";

BEGIN
{
	printf("%s %d\n", greeting, strlen(greeting));
	exit(0);
}
