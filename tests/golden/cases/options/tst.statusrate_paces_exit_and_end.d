/* SPDX-License-Identifier: MIT */
/*
 * exit() ends the run when the status is next checked (illumos
 * dtrace_status(): at the start of tracing, then every statusrate): with
 * statusrate=3sec and exit() after about 0.3 s, END fires about 2.7 s
 * later. Meanwhile no clause runs -- the state is draining -- so n, which
 * every firing's first predicate counts, stays at 3.
 */
#pragma D option quiet
#pragma D option statusrate=3sec

tick-100ms
/n++ == 2/
{
	ts = timestamp;
	exit(0);
}

tick-100ms
/n > 3/
{
	printf("a clause ran after exit()\n");
}

END
{
	printf("n is %d; END came %s a second after exit()\n", n,
	    timestamp - ts >= 1000000000 ? "more than" : "less than");
}
