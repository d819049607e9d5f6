/* SPDX-License-Identifier: MIT */
unsigned void v;

BEGIN
{
	exit(0);
}
