/* SPDX-License-Identifier: MIT */

/* uregs[] takes an integer constant, not a variable holding one. */
BEGIN
{
	reg = R_PC;
	trace(uregs[reg]);
}
