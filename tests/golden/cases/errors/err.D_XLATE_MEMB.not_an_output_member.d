/* SPDX-License-Identifier: MIT */
struct in {
	int a;
};
struct out {
	int b;
};
translator struct out < struct in *p > { c = p->a; };

BEGIN
{
	exit(0);
}
