/* SPDX-License-Identifier: MIT */
/* Member offsets and sizes follow the C ABI alignment rules. */
#pragma D option quiet

struct s {
	char c;
	int i;
	char d;
	int64_t l;
	short sh;
};

BEGIN
{
	printf("%d %d %d %d %d %d\n", sizeof (struct s), offsetof(struct s, c),
	    offsetof(struct s, i), offsetof(struct s, d),
	    offsetof(struct s, l), offsetof(struct s, sh));
	exit(0);
}
