/* SPDX-License-Identifier: MIT */
/* The last exit() consumed decides the status, even one in END. */
/* @@status: 2 */
#pragma D option quiet

BEGIN
{
	exit(0);
}

END
{
	exit(2);
}
