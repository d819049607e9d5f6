/* SPDX-License-Identifier: MIT */
/*
 * The output type is a full type name: `struct output_struct (int)` is a
 * function type, which parses, but a translator can only make a struct or
 * union.
 */
struct input_struct {
	int i;
};

struct output_struct {
	int myi;
};

translator struct output_struct (int) < struct input_struct *uvar >
{
	myi = uvar->i;
};

BEGIN
{
	exit(0);
}
