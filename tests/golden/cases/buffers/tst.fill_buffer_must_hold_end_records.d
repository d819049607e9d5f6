/* SPDX-License-Identifier: MIT */
/*
 * Under the fill policy, room for what END records is kept back from the
 * start; a principal buffer smaller than that cannot be enabled.
 */
/* @@status: 1 */
#pragma D option bufpolicy=fill
#pragma D option bufsize=32
#pragma D option strsize=128

BEGIN
{
	exit(0);
}

END
{
	trace(execname);
}
