/* SPDX-License-Identifier: MIT */
/*
 * this-> variables keep their value across the clauses of one probe
 * firing (the Dynamic Tracing Guide's clause.d example).
 */
#pragma D option quiet

BEGIN
{
	this->v = 10;
}

BEGIN
{
	printf("%d\n", this->v);
	this->v++;
}

BEGIN
{
	printf("%d\n", this->v);
	exit(0);
}
