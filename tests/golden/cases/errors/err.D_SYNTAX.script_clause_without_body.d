/* SPDX-License-Identifier: MIT */
/* In a script file, a clause needs a predicate or actions. */
BEGIN
int i;
{
	exit(0);
}
