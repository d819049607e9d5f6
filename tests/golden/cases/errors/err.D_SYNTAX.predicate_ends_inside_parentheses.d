/* SPDX-License-Identifier: MIT */
/* Reported at the line illumos lexer reads to after the slash. */
BEGIN
/(1 + 2/
{
	exit(0);
}
