/* SPDX-License-Identifier: MIT */
/*
 * With strsize 4096 a string of 3200 characters is kept whole: in a
 * global, a thread-local, a clause-local, an associative array's key, a
 * comparison and a join; a join past 4096 characters keeps the first 4096.
 */
#pragma D option quiet
#pragma D option strsize=4096

BEGIN
{
	s = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
	s = strjoin(s, s);
	s = strjoin(s, s);
	s = strjoin(s, s);
	s = strjoin(s, s);
	s = strjoin(s, s);
	s = strjoin(s, s);
}

BEGIN
{
	self->t = s;
	this->u = strjoin(self->t, "-end");
	n[this->u] = strlen(this->u);
	printf("%d %d\n", strlen(s), strlen(self->t));
	printf("%s\n", substr(this->u, 3190));
}

BEGIN
{
	printf("%d\n", n[strjoin(s, "-end")]);
	printf("%d %d\n", self->t == s, strjoin(s, "-end") > s);
}

BEGIN
{
	u = strjoin(s, s);
	printf("%d %s\n", strlen(u), substr(u, 4086));
	exit(0);
}
