/* SPDX-License-Identifier: MIT */
struct bits {
	int a : 3;
};
BEGIN
{
	this->p = (struct bits *)alloca(4);
	trace(&this->p->a);
}
