/* SPDX-License-Identifier: MIT */
/*
 * D has no floating-point arithmetic, but a float or double object (a
 * variable, a struct member, kernel data) is bytes that printf()'s %e, %f
 * and %g interpret (illumos pfprint_fp()). Variables never assigned hold
 * zeros; copying one to another variable keeps its bytes.
 */
#pragma D option quiet

double d;
float f;
struct sample {
	int count;
	double mean;
} s;

BEGIN
{
	printf("[%e] [%E] [%f] [%g] [%G]\n", d, d, d, d, d);
	printf("[%e] [%f] [%g]\n", f, f, f);
	printf("[%10.3f] [%-10.2e|]\n", d, d);
	copy = d;
	this->local = f;
	printf("%f %f\n", copy, this->local);
	s.count = 3;
	printf("%d %g\n", s.count, s.mean);
	exit(0);
}
