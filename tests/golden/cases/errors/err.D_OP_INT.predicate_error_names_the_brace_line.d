/* SPDX-License-Identifier: MIT */
/* Errors in a predicate name the line of what follows its closing slash. */
BEGIN
/"a" | 1/
{
	exit(0);
}
