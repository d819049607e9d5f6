/* SPDX-License-Identifier: MIT */
#pragma D option quiet

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("speculated\n");
}

BEGIN
{
	printf("direct\n");
}

BEGIN
{
	discard(spec);
}

BEGIN
{
	exit(0);
}
