/* SPDX-License-Identifier: MIT */
/*
 * A clause-local variable is typed once for the whole program: a later
 * clause of the same probe that only reads this->name sees the string an
 * earlier clause assigned (and its value, for the same firing), so it
 * compares as a string.  A variable first assigned in a middle clause
 * keeps its own value beside it.
 */
#pragma D option quiet

BEGIN
{
	this->name = "first";
}

BEGIN
{
	this->count = 3;
	printf("%s %d\n", this->name, this->name == "first");
}

BEGIN
{
	printf("%s %d\n", this->name, this->count);
	exit(0);
}
