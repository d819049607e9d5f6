/* SPDX-License-Identifier: MIT */
/* An integer cannot be moved by a pointer: -= needs a sized left-hand pointer. */
int n;

BEGIN
{
	n -= alloca(4);
}
