/* SPDX-License-Identifier: MIT */
/* A translator's members are given between braces: the first member's name is the error. */
struct input_struct {
	int i;
};

struct output_struct {
	int myi;
};

translator struct output_struct < struct input_struct *uvar >
	myi = uvar->i;
};

BEGIN
{
	exit(0);
}
