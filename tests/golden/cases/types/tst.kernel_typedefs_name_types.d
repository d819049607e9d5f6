/* SPDX-License-Identifier: MIT */
/*
 * Kernel typedefs are D types (illumos: the kernel's CTF is in scope;
 * here its BTF): in casts, pointer casts and sizeof, while a
 * parenthesized variable stays an expression.
 */
#pragma D option quiet

BEGIN
{
	m = (umode_t)0x1ff;
	p = (umode_t *)0;
	x = 5;
	printf("%d %d %d\n", m, sizeof (umode_t), sizeof (pid_t));
	printf("%d %d\n", p == 0, (x) - 2);
	exit(0);
}
