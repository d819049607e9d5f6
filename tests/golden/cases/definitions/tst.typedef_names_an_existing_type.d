/* SPDX-License-Identifier: MIT */
/* typedef gives an existing type a new name. */
#pragma D option quiet

typedef uint8_t byte_t;
typedef struct pair {
	int a;
	int b;
} pair_t;

byte_t b;
pair_t p;

BEGIN
{
	b = 300;
	p.a = 1;
	p.b = 2;
	printf("%d %d %d %d\n", b, sizeof (byte_t), sizeof (pair_t), p.a + p.b);
	exit(0);
}
