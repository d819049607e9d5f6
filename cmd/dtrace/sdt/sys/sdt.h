/* SPDX-License-Identifier: MIT */
/*
 * <sys/sdt.h> for programs written for DTrace's build flow (Solaris,
 * macOS, Oracle Linux): DTRACE_PROBE(provider, name, args...) and
 * DTRACE_PROBE0 ... DTRACE_PROBE12 call
 *
 *	__dtrace_<provider>___<name>(unsigned long, ...)
 *
 * which `dtrace -G -s provider.d objects...` turns into probe sites (a nop
 * and a stapsdt note each; cmd/dtrace/usdt_link.cc). "__" in a name is
 * "-" in the probe's name, as in DTrace. Installed as
 * <includedir>/dtrace/sdt/sys/sdt.h, apart from systemtap's <sys/sdt.h>
 * (whose DTRACE_PROBE macros place stapsdt notes themselves and need no
 * -G): build with -I<includedir>/dtrace/sdt to use this one.
 */
#ifndef _DTRACE_SDT_SYS_SDT_H
#define _DTRACE_SDT_SYS_SDT_H

#ifdef __cplusplus
extern "C" {
#endif

#define _DT_SDT_CALL(provider, name, types, args)                   \
	do {                                                        \
		extern void __dtrace_##provider##___##name types;  \
		__dtrace_##provider##___##name args;                \
	} while (0)
#define _DT_SDT_U(x) ((unsigned long)(x))

#define DTRACE_PROBE0(provider, name) _DT_SDT_CALL(provider, name, (void), ())
#define DTRACE_PROBE1(provider, name, a1) \
	_DT_SDT_CALL(provider, name, (unsigned long), \
		     (_DT_SDT_U(a1)))
#define DTRACE_PROBE2(provider, name, a1, a2) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2)))
#define DTRACE_PROBE3(provider, name, a1, a2, a3) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3)))
#define DTRACE_PROBE4(provider, name, a1, a2, a3, a4) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4)))
#define DTRACE_PROBE5(provider, name, a1, a2, a3, a4, a5) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5)))
#define DTRACE_PROBE6(provider, name, a1, a2, a3, a4, a5, a6) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5), _DT_SDT_U(a6)))
#define DTRACE_PROBE7(provider, name, a1, a2, a3, a4, a5, a6, a7) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5), _DT_SDT_U(a6), _DT_SDT_U(a7)))
#define DTRACE_PROBE8(provider, name, a1, a2, a3, a4, a5, a6, a7, a8) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5), _DT_SDT_U(a6), _DT_SDT_U(a7), _DT_SDT_U(a8)))
#define DTRACE_PROBE9(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5), _DT_SDT_U(a6), _DT_SDT_U(a7), _DT_SDT_U(a8), _DT_SDT_U(a9)))
#define DTRACE_PROBE10(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5), _DT_SDT_U(a6), _DT_SDT_U(a7), _DT_SDT_U(a8), _DT_SDT_U(a9), _DT_SDT_U(a10)))
#define DTRACE_PROBE11(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5), _DT_SDT_U(a6), _DT_SDT_U(a7), _DT_SDT_U(a8), _DT_SDT_U(a9), _DT_SDT_U(a10), _DT_SDT_U(a11)))
#define DTRACE_PROBE12(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	_DT_SDT_CALL(provider, name, (unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long), \
		     (_DT_SDT_U(a1), _DT_SDT_U(a2), _DT_SDT_U(a3), _DT_SDT_U(a4), _DT_SDT_U(a5), _DT_SDT_U(a6), _DT_SDT_U(a7), _DT_SDT_U(a8), _DT_SDT_U(a9), _DT_SDT_U(a10), _DT_SDT_U(a11), _DT_SDT_U(a12)))

/* DTRACE_PROBE(provider, name[, args...]): DTRACE_PROBEn for n arguments. */
#define _DT_SDT_NARGS(...) \
	_DT_SDT_NTH(_, ##__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define _DT_SDT_NTH(_, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, n, ...) n
#define _DT_SDT_PASTE(a, b) a##b
#define _DT_SDT_CAT(a, b) _DT_SDT_PASTE(a, b)
#define DTRACE_PROBE(provider, name, ...) \
	_DT_SDT_CAT(DTRACE_PROBE, _DT_SDT_NARGS(__VA_ARGS__))(provider, name, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* _DTRACE_SDT_SYS_SDT_H */
