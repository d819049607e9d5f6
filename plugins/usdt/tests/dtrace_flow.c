// SPDX-License-Identifier: MIT
// A program written for DTrace's build flow (cc -c; dtrace -G -s flow.d
// dtrace_flow.o; cc dtrace_flow.o flow.o): like code from Solaris or
// macOS, it declares the probe functions that illumos' -h header and
// <sys/sdt.h> declare, and calls them. `dtrace_flow N` runs N steps;
// each fires flow:::step, flow:::many (eight arguments: two on the
// stack), flow:::tail-call from a function whose last act is the call
// (a jmp at -O2) and, while a tracer enables it, flow:::gated. It prints
// on stderr (apart from a tracer's output) how many times flow:::gated
// was enabled when tested.
#include <stdio.h>
#include <stdlib.h>

extern void __dtrace_flow___step(int, char *);
extern void __dtrace_flow___many(long, long, long, long, long, long, long, short);
extern void __dtrace_flow___tail__call(int);
extern void __dtrace_flow___gated(unsigned char);
extern int __dtraceenabled_flow___gated(void);

// The first function of .text: its first instruction is the tail call.
__attribute__((noinline)) void flow_finish(int i)
{
	__dtrace_flow___tail__call(i);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	int gated = 0;
	char word[] = "step"; // on the stack: a probe reads it at once
	for (int i = 0; i < n; i++) {
		__dtrace_flow___step(i - 1, word);
		__dtrace_flow___many(1, -2, 3, 4, 5, 6, 700 + i, (short)-8);
		if (__dtraceenabled_flow___gated()) {
			gated++;
			__dtrace_flow___gated((unsigned char)(250 + i));
		}
		flow_finish(i * 10);
	}
	fprintf(stderr, "gated %d\n", gated);
	return 0;
}
