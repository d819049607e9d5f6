/* SPDX-License-Identifier: MIT */
/* Each firing of a probe starts its own clause-local storage. */
#pragma D option quiet

int n;

tick-10ms
{
	this->first = n == 0 ? 100 : 1;
	n++;
	printf("%d\n", this->first);
}

tick-10ms
/n == 3/
{
	exit(0);
}
