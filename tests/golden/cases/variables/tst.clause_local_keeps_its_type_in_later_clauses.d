/* SPDX-License-Identifier: MIT */
/*
 * A clause-local variable is typed once for the whole program: a later
 * clause of the same probe that only reads this->name sees the string an
 * earlier clause assigned (and its value, for the same firing), so it
 * compares as a string.
 */
#pragma D option quiet

BEGIN
{
	this->name = "first";
}

BEGIN
{
	printf("%s %d\n", this->name, this->name == "first");
}

BEGIN
{
	exit(0);
}
