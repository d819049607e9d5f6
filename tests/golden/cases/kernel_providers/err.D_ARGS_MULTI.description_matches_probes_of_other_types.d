/* SPDX-License-Identifier: MIT */

/*
 * syscall::read*:entry matches read(), readv() and others, whose arguments
 * have other types: args[] is refused rather than typed after one of them.
 */
syscall::read*:entry
{
	trace(args[0]);
}
