/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -w */
/* The prototype is checked before the engine is asked whether it has panic(). */
BEGIN
{
	panic(1);
}
