/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * uapi/dtrace/actions.h - actions, aggregating functions and the record
 * stream, shared by the compiler, every engine (dtrace.ko included) and the
 * consumer. Numbering follows illumos sys/dtrace.h so that tools and
 * documents written against it read the same here.
 *
 * The principal buffer is a sequence of firings. Each firing of an enabled
 * probe (an EPID) writes exactly the same layout, so the EPID alone tells
 * the consumer how to decode it (illumos' invariant):
 *
 *   offset 0  ┌──────────────────────────────┐  8-aligned in the buffer
 *             │ dtrace_rechdr_t  epid, ts    │  12 bytes
 *             ├──────────────────────────────┤
 *             │ record 0  (at its offset)    │  offsets count from the
 *             │ record 1                     │  start of the header and
 *             │ ...                          │  are aligned to the record
 *             └──────────────────────────────┘  clause size (multiple of 8)
 *
 * A firing that does not fit is dropped whole and counted; a firing whose
 * DIF faults is discarded whole and reported (an ERROR probe firing).
 */
#ifndef _UAPI_DTRACE_ACTIONS_H
#define _UAPI_DTRACE_ACTIONS_H

#ifdef __KERNEL__
#include <linux/types.h>
#elif !defined(__bpf__) /* BPF C (core/dif/dif_agg.h): dt_bpf_abi.h has the types */
#include <stdint.h>
#endif

/* Action kinds (illumos DTRACEACT_*). */
#define DTRACEACT_NONE			0	/* no action */
#define DTRACEACT_DIFEXPR		1	/* trace(): record a D expression */
#define DTRACEACT_EXIT			2	/* exit(): stop tracing */
#define DTRACEACT_PRINTF		3	/* printf() */
#define DTRACEACT_PRINTA		4	/* printa() */
#define DTRACEACT_LIBACT		5	/* library-controlled action */
#define DTRACEACT_TRACEMEM		6	/* tracemem() */
#define DTRACEACT_TRACEMEM_DYNSIZE	7	/* dynamic tracemem() size */
#define DTRACEACT_PRINTM		8	/* print() (typed dump) */

#define DTRACEACT_PROC			0x0100
#define DTRACEACT_USTACK		(DTRACEACT_PROC + 1)
#define DTRACEACT_JSTACK		(DTRACEACT_PROC + 2)
#define DTRACEACT_USYM			(DTRACEACT_PROC + 3)
#define DTRACEACT_UMOD			(DTRACEACT_PROC + 4)
#define DTRACEACT_UADDR			(DTRACEACT_PROC + 5)

#define DTRACEACT_PROC_DESTRUCTIVE	0x0200
#define DTRACEACT_STOP			(DTRACEACT_PROC_DESTRUCTIVE + 1)
#define DTRACEACT_RAISE			(DTRACEACT_PROC_DESTRUCTIVE + 2)
#define DTRACEACT_SYSTEM		(DTRACEACT_PROC_DESTRUCTIVE + 3)
#define DTRACEACT_FREOPEN		(DTRACEACT_PROC_DESTRUCTIVE + 4)

#define DTRACEACT_PROC_CONTROL		0x0300

#define DTRACEACT_KERNEL		0x0400
#define DTRACEACT_STACK			(DTRACEACT_KERNEL + 1)
#define DTRACEACT_SYM			(DTRACEACT_KERNEL + 2)
#define DTRACEACT_MOD			(DTRACEACT_KERNEL + 3)

#define DTRACEACT_KERNEL_DESTRUCTIVE	0x0500
#define DTRACEACT_BREAKPOINT		(DTRACEACT_KERNEL_DESTRUCTIVE + 1)
#define DTRACEACT_PANIC			(DTRACEACT_KERNEL_DESTRUCTIVE + 2)
#define DTRACEACT_CHILL			(DTRACEACT_KERNEL_DESTRUCTIVE + 3)

#define DTRACEACT_SPECULATIVE		0x0600
#define DTRACEACT_SPECULATE		(DTRACEACT_SPECULATIVE + 1)
#define DTRACEACT_COMMIT		(DTRACEACT_SPECULATIVE + 2)
#define DTRACEACT_DISCARD		(DTRACEACT_SPECULATIVE + 3)

#define DTRACEACT_CLASS(x)		((x) & 0xff00)
#define DTRACEACT_ISDESTRUCTIVE(x) \
	(DTRACEACT_CLASS(x) == DTRACEACT_PROC_DESTRUCTIVE || \
	 DTRACEACT_CLASS(x) == DTRACEACT_KERNEL_DESTRUCTIVE)
#define DTRACEACT_ISSPECULATIVE(x)	(DTRACEACT_CLASS(x) == DTRACEACT_SPECULATIVE)
#define DTRACEACT_ISPRINTFLIKE(x) \
	((x) == DTRACEACT_PRINTF || (x) == DTRACEACT_PRINTA || \
	 (x) == DTRACEACT_SYSTEM || (x) == DTRACEACT_FREOPEN)

/* Library actions (DTRACEACT_LIBACT), handled by the consumer (illumos DT_ACT_*). */
#define DT_ACT_PRINTF		1	/* printf() */
#define DT_ACT_TRACE		2	/* trace() */
#define DT_ACT_CLEAR		3	/* clear() */
#define DT_ACT_NORMALIZE	4	/* normalize() */
#define DT_ACT_DENORMALIZE	5	/* denormalize() */
#define DT_ACT_TRUNC		6	/* trunc() */
#define DT_ACT_SETOPT		7	/* setopt() */
#define DT_ACT_FTRUNCATE	8	/* ftruncate() */

/* Aggregating functions (illumos DTRACEAGG_*): action kinds of their own. */
#define DTRACEACT_AGGREGATION		0x0700
#define DTRACEAGG_COUNT			(DTRACEACT_AGGREGATION + 1)
#define DTRACEAGG_MAX			(DTRACEACT_AGGREGATION + 2)
#define DTRACEAGG_MIN			(DTRACEACT_AGGREGATION + 3)
#define DTRACEAGG_SUM			(DTRACEACT_AGGREGATION + 4)
#define DTRACEAGG_AVG			(DTRACEACT_AGGREGATION + 5)
#define DTRACEAGG_STDDEV		(DTRACEACT_AGGREGATION + 6)
#define DTRACEAGG_QUANTIZE		(DTRACEACT_AGGREGATION + 7)
#define DTRACEAGG_LQUANTIZE		(DTRACEACT_AGGREGATION + 8)
#define DTRACEAGG_LLQUANTIZE		(DTRACEACT_AGGREGATION + 9)
#define DTRACEACT_ISAGG(x)		(DTRACEACT_CLASS(x) == DTRACEACT_AGGREGATION)

/*
 * Aggregation values are arrays of int64_t words; their layout per function
 * (what engines hand the consumer, and what the consumer merges):
 *   count sum             [0] value
 *   min                   [0] value (starts at INT64_MAX)
 *   max                   [0] value (starts at INT64_MIN)
 *   avg                   [0] count  [1] total
 *   stddev                [0] count  [1] total  [2] sum of squares, low 64
 *                         bits  [3] high 64 bits (unsigned 128-bit)
 *   quantize              DTRACE_QUANTIZE_NBUCKETS counts
 *   lquantize             levels + 2 counts (underflow, levels, overflow)
 *   llquantize            dif_agg_nwords() counts (core/dif/dif_agg.h, the
 *                         arithmetic of every layout here)
 */
#define DTRACE_QUANTIZE_NBUCKETS	(((sizeof(uint64_t) * 8) - 1) * 2 + 1)	/* 127 */
#define DTRACE_QUANTIZE_ZEROBUCKET	((sizeof(uint64_t) * 8) - 1)		/* 63 */
#define DTRACE_QUANTIZE_BUCKETVAL(buck) \
	(int64_t)((buck) < DTRACE_QUANTIZE_ZEROBUCKET ? \
		  -(1LL << (DTRACE_QUANTIZE_ZEROBUCKET - 1 - (buck))) : \
		  (buck) == DTRACE_QUANTIZE_ZEROBUCKET ? 0 : \
		  1LL << ((buck) - DTRACE_QUANTIZE_ZEROBUCKET - 1))

/* lquantize(value, base, limit, step): levels = (limit - base) / step. */
/* llquantize(value, factor, low, high, nsteps): parameters in the program. */

/*
 * The header of every firing in the principal buffer (illumos
 * dtrace_rechdr_t): the timestamp is split so that the header is 4-aligned
 * and 12 bytes long.
 */
typedef struct dtrace_rechdr {
	uint32_t dtrh_epid;		/* enabled probe id */
	uint32_t dtrh_timestamp_hi;	/* high 32 bits of the timestamp */
	uint32_t dtrh_timestamp_lo;	/* low 32 bits of the timestamp */
} dtrace_rechdr_t;

#define DTRACE_EPIDNONE		0	/* invalid enabled probe identifier */

#endif /* _UAPI_DTRACE_ACTIONS_H */
