/* SPDX-License-Identifier: MIT */
/* Speculating more than specsize bytes counts a speculative drop. */
#pragma D option quiet
#pragma D option specsize=8

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("%s %s %s\n", "aaaaaaaa", "bbbbbbbb", "cccccccc");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
