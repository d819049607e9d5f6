/* SPDX-License-Identifier: MIT */
/*
 * Any bytes make valid JSON: quotes, backslashes and control characters
 * are escaped, well-formed UTF-8 is kept, and each byte that is not
 * well-formed UTF-8 (a lone continuation byte, 0xff, a truncated
 * sequence, an overlong form, a surrogate) becomes U+FFFD.
 */
/* @@runtest-opts: -q */
BEGIN
{
	printf("%s", "quote \" backslash \\ tab \t newline \n bell \a del \177");
	trace("caf\303\251 \342\202\254 \360\237\230\200");
	trace("bad \377 \376 cont \200 trunc \342\202 over \300\257 surr \355\240\200 end");
	exit(0);
}
