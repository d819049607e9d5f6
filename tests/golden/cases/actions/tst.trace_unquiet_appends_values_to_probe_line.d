/* SPDX-License-Identifier: MIT */
/* Without quiet, trace() values follow the CPU/ID/FUNCTION:NAME line. */

BEGIN
{
	trace(42);
	trace("str");
	exit(0);
}
