/* SPDX-License-Identifier: MIT */
/*
 * A translator's input goes between < and >. Written in parentheses it is
 * read as the output type's function declarator (illumos' grammar takes
 * the output as a full type name: `struct output_struct (params)` is a
 * function type), so the syntax error comes at the `{` where the `<` was
 * expected.
 */
struct input_struct {
	int i;
};

struct output_struct {
	int myi;
};

translator struct output_struct (struct input_struct *uvar)
{
	myi = uvar->i;
};

BEGIN
{
	exit(0);
}
