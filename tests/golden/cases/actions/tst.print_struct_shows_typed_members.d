/* SPDX-License-Identifier: MIT */
/*
 * print() of a D-declared struct shows each member with its type and
 * name, 4 columns deeper per level (illumos dt_print.c): integers and
 * pointers in hex, characters quoted, char arrays as strings; no newline
 * follows the outermost closing brace.
 */
#pragma D option quiet

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
	this->f->a = 1;
	this->f->b = 0x1234;
	this->f->name[0] = 'a';
	this->f->name[1] = 'b';
	this->f->name[2] = '\0';
	this->f->in.s = 7;
	this->f->in.c = 'z';
	this->f->p = 0;
	print(*this->f);
	printf("\n");
	exit(0);
}
