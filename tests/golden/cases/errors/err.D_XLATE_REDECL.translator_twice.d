/* SPDX-License-Identifier: MIT */
struct in {
	int a;
};
struct out {
	int b;
};
translator struct out < struct in *p > { b = p->a; };
translator struct out < struct in *p > { b = p->a; };

BEGIN
{
	exit(0);
}
