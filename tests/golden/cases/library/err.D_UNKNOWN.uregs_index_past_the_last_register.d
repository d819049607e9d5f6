/* SPDX-License-Identifier: MIT */

/* uregs[] has R_TRAPNO + 1 slots on x86_64: the next index is refused. */
BEGIN
{
	trace(uregs[R_TRAPNO + 1]);
}
