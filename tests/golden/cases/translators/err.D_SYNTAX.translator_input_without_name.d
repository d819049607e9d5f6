/* SPDX-License-Identifier: MIT */
/* The input type must be followed by the name members use for it. */
struct input_struct {
	int i;
};

struct output_struct {
	int myi;
};

translator struct output_struct < struct input_struct * >
{
	myi = 0;
};

BEGIN
{
	exit(0);
}
