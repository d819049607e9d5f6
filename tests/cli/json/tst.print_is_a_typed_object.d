/* SPDX-License-Identifier: MIT */
/*
 * print() of a struct: its type name, and its members by name (nested
 * structs as objects, char arrays as strings, pointers as "0x...").
 */
/* @@runtest-opts: -q */
struct inner {
	short s;
	char c;
};

struct foo {
	int a;
	uint64_t b;
	char name[8];
	struct inner in;
	int *p;
};

BEGIN
{
	this->f = (struct foo *)alloca(sizeof (struct foo));
	this->f->a = -1;
	this->f->b = 0x1234;
	this->f->name[0] = 'a';
	this->f->name[1] = 'b';
	this->f->name[2] = '\0';
	this->f->in.s = 7;
	this->f->in.c = 'z';
	this->f->p = 0;
	print(*this->f);
	print(5);
	exit(0);
}
