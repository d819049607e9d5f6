/* SPDX-License-Identifier: MIT */
/* -x amin=Stable/Stable/Common refuses htonl(), an Evolving subroutine, naming it. */
/* @@runtest-opts: -x amin=Stable/Stable/Common */
dtrace:::BEGIN
{
	trace(htonl(1));
	exit(0);
}
