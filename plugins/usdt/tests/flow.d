/*
 * The provider of dtrace_flow.c, a program written for DTrace's -G flow
 * (it calls the probe functions itself; dtrace -G makes them probes).
 */
provider flow {
	probe step(int, char *);
	probe many(long, long, long, long, long, long, long, short);
	probe tail__call(int);
	probe gated(unsigned char);
};
