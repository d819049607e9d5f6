/* SPDX-License-Identifier: MIT */
/* A translator's output struct must be complete; the error names the
 * line that ends the translator. */
struct src { int a; };
translator struct never_defined < struct src *p >
{
	a = p->a;
};
BEGIN
{
	exit(0);
}
