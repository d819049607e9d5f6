/* SPDX-License-Identifier: MIT */
/* A call of a name that no subroutine, action or D library declares. */
BEGIN
{
	no_such_routine(1);
}
