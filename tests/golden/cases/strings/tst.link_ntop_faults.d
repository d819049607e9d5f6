/* SPDX-License-Identifier: MIT */
/* link_ntop() faults: an unknown link type is an illegal operation, NULL a bad address. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", link_ntop(999, alloca(8)));
}

BEGIN
{
	printf("%s\n", link_ntop(ARPHRD_ETHER, (uint8_t *)NULL));
}

BEGIN
{
	exit(0);
}

ERROR
{
	@faults[arg4, arg5] = count();
}

END
{
	printa("fault %d value %d: %@d\n", @faults);
}
