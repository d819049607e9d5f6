/* SPDX-License-Identifier: MIT */

/* No subroutine, action or aggregating function has this name. */
BEGIN
{
	x = no_such_function(1);
}
