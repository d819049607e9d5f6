/* SPDX-License-Identifier: MIT */
/*
 * Each translator member is one assignment ending in `;` (illumos'
 * translator_member: IDENT = assignment_expression ;): a comma there is
 * the error.
 */
struct input_struct {
	int i;
	int j;
};

struct output_struct {
	int myi;
};

translator struct output_struct < struct input_struct *uvar >
{
	myi = uvar->i, uvar->j;
};

BEGIN
{
	exit(0);
}
