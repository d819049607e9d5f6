/* SPDX-License-Identifier: MIT */
/* The input's name must be followed by `>`: the `{` after it is the error. */
struct input_struct {
	int i;
};

struct output_struct {
	int myi;
};

translator struct output_struct < struct input_struct *uvar
{
	myi = uvar->i;
};

BEGIN
{
	exit(0);
}
