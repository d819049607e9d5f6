/* SPDX-License-Identifier: MIT */

/* signal.d: x86_64 Linux's signal numbers, as proc:::signal-* scripts use them. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", SIGHUP, SIGINT, SIGKILL, SIGSEGV, SIGTERM);
	printf("%d %d %d %d %d\n", SIGUSR1, SIGUSR2, SIGCHLD, SIGCLD, SIGSTOP);
	printf("%d %d %d %d\n", SIGBUS, SIGSYS, SIGRTMIN, SIGRTMAX);
	exit(0);
}
