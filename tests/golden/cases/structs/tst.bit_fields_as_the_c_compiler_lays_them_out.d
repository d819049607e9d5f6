/* SPDX-License-Identifier: MIT */
/*
 * Bit-fields are packed as the C compiler packs them (gcc on x86_64 prints
 * the same for this struct over the same bytes): units of their type, a
 * field never straddling one, ":0" closing the unit; signed fields are
 * sign-extended.
 */
#pragma D option quiet

struct s {
	unsigned int a : 3;
	int b : 5;
	unsigned int c : 30;
	unsigned long d : 40;
	char e;
	int : 0;
	int f : 4;
};
BEGIN
{
	this->p = (struct s *)alloca(sizeof (struct s));
	this->w = (uint64_t *)this->p;
	this->w[0] = 0xfedcba9876543210;
	this->w[1] = 0x0123456789abcdef;
	this->w[2] = 0xffffffffffffffff;
	printf("size %d a %u b %d c %x d %x e %d f %d\n", sizeof (struct s), this->p->a, this->p->b, this->p->c, this->p->d, this->p->e, this->p->f);
	exit(0);
}
