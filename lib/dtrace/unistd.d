/*
 * SPDX-License-Identifier: MIT
 *
 * unistd.d - the fault codes of the ERROR probe (Dynamic Tracing Guide,
 * "ERROR Probe"): arg4 of dtrace:::ERROR is one of these, e.g.
 *	ERROR /arg4 == DTRACEFLT_BADADDR/ { printf("bad address %p", arg5); }
 * The values are DTrace's (uapi/dtrace/dif.h); codes from
 * DTRACEFLT_LIBRARY up are the consumer's own.
 */

inline int DTRACEFLT_UNKNOWN = 0;	/* unknown fault */
inline int DTRACEFLT_BADADDR = 1;	/* bad address */
inline int DTRACEFLT_BADALIGN = 2;	/* bad alignment */
inline int DTRACEFLT_ILLOP = 3;		/* illegal operation */
inline int DTRACEFLT_DIVZERO = 4;	/* divide by zero */
inline int DTRACEFLT_NOSCRATCH = 5;	/* out of scratch space */
inline int DTRACEFLT_KPRIV = 6;		/* illegal kernel access */
inline int DTRACEFLT_UPRIV = 7;		/* illegal user access */
inline int DTRACEFLT_TUPOFLOW = 8;	/* tuple stack overflow */
inline int DTRACEFLT_BADSTACK = 9;	/* bad stack */
inline int DTRACEFLT_LIBRARY = 1000;	/* library-level fault */
