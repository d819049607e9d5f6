/* SPDX-License-Identifier: MIT */
struct in {
	int a;
};
translator int < struct in *p > { a = p->a; };

BEGIN
{
	exit(0);
}
