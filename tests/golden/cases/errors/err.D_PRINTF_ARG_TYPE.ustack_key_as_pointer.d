/* SPDX-License-Identifier: MIT */
/* A ustack() key is of type stack: %p refuses it. */
BEGIN
{
	@[ustack(3)] = count();
	printa("%p %@d\n", @);
}
