/* SPDX-License-Identifier: MIT */
/* Without quiet, END's firing line names dtrace's END probe. */

BEGIN
{
	exit(0);
}

END
{
	trace(1);
}
