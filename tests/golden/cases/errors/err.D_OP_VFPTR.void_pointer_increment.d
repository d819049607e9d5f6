/* SPDX-License-Identifier: MIT */
/* A void * has no element size to step by. */
BEGIN
{
	p = alloca(8);
	p += 1;
}
