/* SPDX-License-Identifier: MIT */
/* An action has no value: passed to a subroutine it is an argument of type void. */
BEGIN
{
	n = strlen(exit(0));
}
