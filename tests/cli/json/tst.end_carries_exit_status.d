/* SPDX-License-Identifier: MIT */
/*
 * The last record says tracing ended and with which exit() status, which
 * is also dtrace's exit status. tracemem() gives the bytes as numbers.
 */
/* @@runtest-opts: -q */
/* @@status: 3 */
BEGIN
{
	this->p = (char *)alloca(4);
	this->p[0] = 'h';
	this->p[1] = 'i';
	this->p[2] = '!';
	this->p[3] = '\0';
	tracemem(this->p, 4);
	exit(3);
}
