/* SPDX-License-Identifier: MIT */
/* denormalize() undoes normalize() for printing. */
#pragma D option quiet

BEGIN
{
	@["a"] = sum(100);
	@["b"] = sum(300);
	normalize(@, 10);
	printa("%s %@d\n", @);
	denormalize(@);
	printa("%s %@d\n", @);
	exit(0);
}
