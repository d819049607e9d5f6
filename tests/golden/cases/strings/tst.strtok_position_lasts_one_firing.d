/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * strtok()'s position lasts for one firing of a probe: the second clause
 * continues the string the first tokenised, in each firing of tick-10ms,
 * and the next firing starts with none (illumos clears mstate's
 * dtms_strtok in dtrace_probe()). So END, a firing of its own,
 * has no string to continue: strtok(NULL, ...) there loads from address
 * 0, as in illumos, and faults.
 */
int n;

tick-10ms
/n < 2/
{
	this->list = n == 0 ? "red,green,blue" : ",one,,two";
	printf("firing %d, first clause: %s\n", n, strtok(this->list, ","));
}

tick-10ms
/n < 2/
{
	printf("firing %d, second clause: %s\n", n, strtok(NULL, ","));
	n++;
}

tick-10ms
/n == 2/
{
	exit(0);
}

END
{
	trace(strtok(NULL, ","));
}
