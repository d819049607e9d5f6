/* SPDX-License-Identifier: MIT */
/*
 * speculate(), commit() and discard() act where the probe fires and record
 * nothing of their own: without -q, a clause holding only them prints no
 * probe line. The committed firing prints as the clause that traced it.
 */
#pragma D option nspec=2

BEGIN
{
	kept = speculation();
	dropped = speculation();
}

BEGIN
{
	speculate(kept);
	trace("committed");
}

BEGIN
{
	speculate(dropped);
	trace("discarded");
}

BEGIN
{
	commit(kept);
	discard(dropped);
}

BEGIN
{
	exit(0);
}
