/* SPDX-License-Identifier: MIT */
/*
 * A struct's string members, in a global struct and in the elements of
 * global and thread-local associative arrays: assigned a string (cut at
 * strsize characters), read back whole, compared, measured.
 */
#pragma D option quiet
#pragma D option strsize=8

struct entry {
	string name;
	int len;
	string tag;
};

struct entry one;
struct entry table[int];
self struct entry mine[string];

BEGIN
{
	one.name = "first";
	one.len = strlen(one.name);
	table[1].name = "second";
	table[1].tag = "abcdefghijk";
	table[2].name = table[1].name;
	self->mine["x"].name = "third";
	self->mine["x"].tag = strjoin(one.name, "!");
	printf("%s %d\n", one.name, one.len);
	printf("%s [%s] %d\n", table[1].name, table[1].tag, strlen(table[1].tag));
	printf("%s %d\n", table[2].name, table[2].name == table[1].name);
	printf("%s %s\n", self->mine["x"].name, self->mine["x"].tag);
	exit(0);
}
