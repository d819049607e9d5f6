/* SPDX-License-Identifier: MIT */
/* Only the members of translated data have values: a cast of it fails. */
struct a_in { int v; };
struct a_out { int w; };
translator struct a_out < struct a_in *p > { w = p->v; };
struct a_in *ap;
BEGIN
{
	trace((uintptr_t)xlate<struct a_out *>(ap));
}
