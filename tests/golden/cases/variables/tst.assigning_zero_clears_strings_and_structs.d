/* SPDX-License-Identifier: MIT */
/*
 * Assigning 0 (NULL) to a string or struct held in a dynamic variable clears
 * it; a string compares with NULL (a subroutine that found nothing).
 */
#pragma D option quiet
struct pt { int x; int y; };
struct pt p[int];
self struct pt q;
BEGIN
{
	s = "hello";
	printf("set: %d\n", s != NULL);
	s = 0;
	printf("cleared: %d %d\n", s == NULL, NULL == s);
	t = strchr("abc", 'z');
	printf("strchr miss: %d\n", t == NULL);
	u = strchr("abc", 'b');
	printf("strchr hit: %s %d\n", u, u != 0);
	p[1].x = 3; p[1].y = 4;
	printf("before: %d %d\n", p[1].x, p[1].y);
	p[1] = 0;
	printf("after: %d %d\n", p[1].x, p[1].y);
	self->q.x = 7;
	self->q = 0;
	printf("tls after: %d\n", self->q.x);
	this->l = "x";
	this->l = NULL;
	printf("local: %d\n", this->l == NULL);
	exit(0);
}
