/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -e */

/*
 * read() and write() both take an unsigned int first: args[0] has one type
 * for both descriptions. (Compiled only.)
 */
syscall::read:entry,
syscall::write:entry
{
	trace(args[0]);
}
