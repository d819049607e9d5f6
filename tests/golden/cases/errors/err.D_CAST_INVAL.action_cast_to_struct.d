/* SPDX-License-Identifier: MIT */
/* An action used as an operand has type void: it cannot be cast to a struct. */
struct s { int a; };
BEGIN
{
	(struct s)exit(0);
}
