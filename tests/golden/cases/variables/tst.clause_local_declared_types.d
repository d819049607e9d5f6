/* SPDX-License-Identifier: MIT */
/* The guide's declared clause-local variables: this int x; this char c. */
#pragma D option quiet

this int x;
this char c;

BEGIN
{
	this->x = 123;
	this->c = 'D';
	printf("%d %c %d\n", this->x, this->c, sizeof (this->c));
	exit(0);
}
