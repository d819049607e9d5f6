/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * subr_net.bpf.c - inet_ntop(af, addr) and inet_ntoa6(addr): the output of
 * the interpreter's subr_inet (dif_subr.c), which is illumos'
 * dtrace_dif_subr, quirks included: AF_INET (2) a dotted quad, AF_INET6
 * (10, the Linux value) with the longest zero run (illumos' byte-wise
 * rule) as "::", lower-case hex, IPv4-mapped and -compatible addresses
 * ending in a dotted quad (inet_ntoa6: the quad alone). Another af faults
 * ILLOP.
 *
 * The text is written right to left as illumos does. Every value that
 * changes in a loop (the write position, the zero-run state, the group)
 * lives in a DT_RES slot, so the loops' branches merge (see dt_lib_impl.h).
 */
#include "dt_lib_impl.h"

#define DT_AF_INET 2
#define DT_AF_INET6 10
#define DT_NET_OUT 46 /* INET6_ADDRSTRLEN */

/* Result slots: the write position, the zero run, the group index. */
#define R_END 20
#define R_TRYZERO 21
#define R_FIRSTZERO 22
#define R_NUMZERO 23
#define R_I 24
#define R_OUT 25
#define R_VAL 26

/* The address bytes, fetched into DT_TMP_C. */
DT_INLINE u64 dt_net_byte(struct dt_bpf_mem *m, u64 i)
{
	return DT_SP(m, DT_TMP_C)[i & 15];
}

/* Write ch at the write position and move it left. */
DT_INLINE void dt_net_putc(struct dt_bpf_mem *m, u64 ch)
{
	u64 end = dt_res(m, R_END);

	DT_SP(m, 0)[(dt_res(m, R_OUT) + (end & 63)) & (DT_BPF_SCRATCH_SIZE - 1)] = (uint8_t)ch;
	dt_res_set(m, R_END, end - 1);
}

/* Decimal digits of v (0..255), right to left. */
DT_INLINE void dt_net_dec(struct dt_bpf_mem *m, u64 v)
{
	dt_net_putc(m, '0' + v % 10);
	if (v >= 10)
		dt_net_putc(m, '0' + (v / 10) % 10);
	if (v >= 100)
		dt_net_putc(m, '0' + v / 100);
}

/* The quad of bytes 12..15 (or 0..3 for AF_INET: base 0), right to left. */
DT_INLINE void dt_net_quad(struct dt_bpf_mem *m, u64 base)
{
	dt_net_dec(m, dt_net_byte(m, base + 3));
	dt_net_putc(m, '.');
	dt_net_dec(m, dt_net_byte(m, base + 2));
	dt_net_putc(m, '.');
	dt_net_dec(m, dt_net_byte(m, base + 1));
	dt_net_putc(m, '.');
	dt_net_dec(m, dt_net_byte(m, base));
}

/* The zero run to compress: illumos' byte-wise search, state in slots. */
DT_INLINE void dt_net_zerorun(struct dt_bpf_mem *m)
{
	int64_t tryzero, numzero;
	u64 a;

	dt_res_set(m, R_TRYZERO, ~0ULL);
	dt_res_set(m, R_FIRSTZERO, ~0ULL);
	dt_res_set(m, R_NUMZERO, 1);
#pragma clang loop unroll(disable)
	for (u64 i = 0; i < 16; i++) {
		a = dt_net_byte(m, i);
		tryzero = (int64_t)dt_res(m, R_TRYZERO);
		if (a == 0 && tryzero == -1 && i % 2 == 0) {
			dt_res_set(m, R_TRYZERO, i);
			continue;
		}
		if (tryzero != -1 && (a != 0 || i == 15)) {
			numzero = (int64_t)dt_res(m, R_NUMZERO);
			dt_res_set(m, R_TRYZERO, ~0ULL);
			if ((int64_t)i - tryzero <= numzero)
				continue;
			dt_res_set(m, R_FIRSTZERO, (u64)tryzero);
			dt_res_set(m, R_NUMZERO, i - i % 2 - (u64)tryzero + (a == 0 && i == 15 ? 2 : 0));
		}
	}
}

/* The groups from v6end down to 0, right to left. */
DT_INLINE void dt_net_groups(struct dt_bpf_mem *m, u64 v6end)
{
	int64_t i, firstzero, numzero;
	u64 val;

	dt_res_set(m, R_I, v6end);
#pragma clang loop unroll(disable)
	for (u64 g = 0; g < 8; g++) {
		i = (int64_t)dt_res(m, R_I);
		if (i < 0)
			break;
		firstzero = (int64_t)dt_res(m, R_FIRSTZERO);
		numzero = (int64_t)dt_res(m, R_NUMZERO);
		if (i == firstzero + numzero - 2) {
			dt_net_putc(m, ':');
			dt_net_putc(m, ':');
			dt_res_set(m, R_I, (u64)(i - numzero));
			continue;
		}
		if (i < 14 && i != firstzero - 2)
			dt_net_putc(m, ':');
		val = (dt_net_byte(m, (u64)i) << 8) + dt_net_byte(m, (u64)i + 1);
		dt_res_set(m, R_VAL, val);
		/* Hex digits right to left, at least one. */
#pragma clang loop unroll(full)
		for (int k = 0; k < 4; k++) {
			val = dt_res(m, R_VAL);
			if (k > 0 && val == 0)
				break;
			dt_net_putc(m, (val & 15) < 10 ? '0' + (val & 15) : 'a' + (val & 15) - 10);
			dt_res_set(m, R_VAL, val >> 4);
		}
		dt_res_set(m, R_I, (u64)(i - 2));
	}
}

/* which: 0 inet_ntop, 1 inet_ntoa6. */
DT_INLINE u64 dt_inet(struct dt_bpf_mem *m, u64 af, u64 addr, int which)
{
	u64 src, avail, size, d, last;
	int mapped, compat, zero80;

	if (af != DT_AF_INET && af != DT_AF_INET6)
		return dt_fault(m, DTRACEFLT_ILLOP, af);
	size = af == DT_AF_INET ? 4 : 16;
	if (dt_resolve(m, addr, size, &src, &avail))
		return 0;
	if (bpf_probe_read_kernel(DT_SP(m, DT_TMP_C), size == 4 ? 4 : 16, (void *)src))
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(addr, 0));
	d = dt_alloc(m, DT_NET_OUT);
	if (!d)
		return 0;
	/* Written right to left from the last byte; the NUL is the alloc's. */
	dt_res_set(m, R_OUT, DT_BPF_TAG_OFF(d));
	dt_res_set(m, R_END, (af == DT_AF_INET ? 16 : DT_NET_OUT) - 2);
	if (af == DT_AF_INET) {
		dt_net_quad(m, 0);
		return d + dt_res(m, R_END) + 1;
	}
	dt_net_zerorun(m);
	zero80 = (*(u64 *)DT_SP(m, DT_TMP_C) | *(uint16_t *)DT_SP(m, DT_TMP_C + 8)) == 0;
	last = dt_net_byte(m, 12) | dt_net_byte(m, 13) | dt_net_byte(m, 14) | dt_net_byte(m, 15);
	mapped = zero80 && dt_net_byte(m, 10) == 0xff && dt_net_byte(m, 11) == 0xff;
	compat = zero80 && dt_net_byte(m, 10) == 0 && dt_net_byte(m, 11) == 0 && last != 0 &&
		 !(dt_net_byte(m, 12) == 0 && dt_net_byte(m, 13) == 0 && dt_net_byte(m, 14) == 0 &&
		   dt_net_byte(m, 15) == 1);
	if (mapped || compat) {
		dt_net_quad(m, 12);
		if (which == 1)
			return d + dt_res(m, R_END) + 1;
		dt_net_groups(m, 10);
	} else {
		dt_net_groups(m, 14);
	}
	return dt_res(m, R_OUT) + DT_BPF_TAG_SCRATCH + dt_res(m, R_END) + 1;
}

DT_API u64 dt_subr_inet_ntop(struct dt_bpf_mem *m, u64 strsize, u64 af, u64 addr)
{
	return dt_inet(m, af, addr, 0);
}

/* strict (optional, 0 when left out): IPv4-mapped and -compatible addresses as inet_ntop. */
DT_API u64 dt_subr_inet_ntoa6(struct dt_bpf_mem *m, u64 strsize, u64 addr, u64 strict)
{
	return dt_inet(m, DT_AF_INET6, addr, strict ? 0 : 1);
}
