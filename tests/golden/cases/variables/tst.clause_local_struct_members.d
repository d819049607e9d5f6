/* SPDX-License-Identifier: MIT */
/*
 * A clause-local struct keeps what is stored into its members, in the
 * clause that stores it and in the later clauses of the same firing.
 */
#pragma D option quiet

struct pair {
	int first;
	long second;
};

this struct pair p;

BEGIN
{
	this->p.first = 5;
	this->p.second = 7;
	this->p.first += 10;
	printf("%d %d\n", this->p.first, this->p.second);
}

BEGIN
{
	printf("%d %d\n", this->p.first, this->p.second);
	exit(0);
}
