/* SPDX-License-Identifier: MIT */
/*
 * The destructive option set by a pragma, not by -w, still makes dtrace
 * say "allowing destructive actions" once tracing has started, as
 * dtrace.c does after go() for the option however it was set.
 */
#pragma D option destructive

BEGIN
{
	trace("traced");
	exit(0);
}
