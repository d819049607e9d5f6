/* SPDX-License-Identifier: MIT */
/* @@runtest-args: 42 hello */
BEGIN
{
	trace($1);
}
