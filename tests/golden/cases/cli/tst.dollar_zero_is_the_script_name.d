/* SPDX-License-Identifier: MIT */
/* In a script, $$0 is the name of the script as given to -s. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", $$0);
	exit(0);
}
