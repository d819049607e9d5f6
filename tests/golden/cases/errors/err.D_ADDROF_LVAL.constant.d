/* SPDX-License-Identifier: MIT */
/* Unary & needs an lvalue: a constant has no address. */
BEGIN
{
	trace(&42);
}
