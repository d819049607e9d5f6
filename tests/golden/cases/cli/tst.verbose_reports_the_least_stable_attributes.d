/* SPDX-License-Identifier: MIT */
/*
 * -v reports the script's least stable attributes: the description names
 * the dtrace provider's Stable provider and name fields; htonl() is an
 * Evolving subroutine, so the statements are Evolving.
 */
/* @@runtest-opts: -q -v */
dtrace:::BEGIN
{
	trace(htonl(1) != 0);
	exit(0);
}
