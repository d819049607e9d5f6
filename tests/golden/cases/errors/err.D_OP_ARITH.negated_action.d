/* SPDX-License-Identifier: MIT */
/* An action used as an operand has type void: unary minus refuses it. */
BEGIN
{
	x = -exit(0);
}
