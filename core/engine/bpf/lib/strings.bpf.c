/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * strings.bpf.c - string comparison (DIF scmp; dif_emulate.c
 * dif_strncmp): unsigned bytes, at most strsize of them, NULL as "".
 * Both strings are fetched into the temporaries, then compared eight bytes
 * at a time (at most 129 iterations for the verifier to walk).
 *
 * Difference: the interpreter stops reading at the first difference, so a
 * string that becomes unreadable after it does not fault there; here both
 * strings are read to their NUL (or strsize) first.
 */
#include "dt_lib_impl.h"

/* High bit of each zero byte of w (exact for the lowest one; nonzero iff w has one). */
DT_INLINE u64 dt_zbytes(u64 w)
{
	return (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
}

DT_INLINE void dt_res_set(struct dt_bpf_mem *m, u64 k, u64 v)
{
	*(u64 *)(DT_SP(m, DT_RES(0)) + 8 * k) = v;
}

DT_INLINE u64 dt_res(struct dt_bpf_mem *m, u64 k)
{
	return *(u64 *)(DT_SP(m, DT_RES(0)) + 8 * k);
}

/*
 * The loop finds the first word where the strings differ or end (its
 * index goes through a result slot); the bytes of that word are then
 * compared unrolled.
 */
DT_API u64 dt_scmp(struct dt_bpf_mem *m, u64 a, u64 b, u64 strsize)
{
	u64 wa, wb, ca, cb, k;

	strsize = dt_strsize(strsize);
	if (a == b)
		return 0;
	if (!a)
		m->scratch[DT_TMP_A] = 0;
	else if (dt_fetch(m, a, DT_TMP_A, strsize) < 0)
		return 0;
	if (!b)
		m->scratch[DT_TMP_B] = 0;
	else if (dt_fetch(m, b, DT_TMP_B, strsize) < 0)
		return 0;
	dt_res_set(m, 0, 0);
#pragma clang loop unroll(disable)
	for (k = 0; k <= DT_BPF_STRSIZE_MAX / 8; k++) {
		if (k * 8 > strsize)
			break;
		wa = DT_TW(m, DT_TMP_A, k * 8);
		wb = DT_TW(m, DT_TMP_B, k * 8);
		dt_res_set(m, 0, k);
		if (wa != wb || dt_zbytes(wa))
			break;
	}
	k = dt_res(m, 0) * 8;
	wa = DT_TW(m, DT_TMP_A, k);
	wb = DT_TW(m, DT_TMP_B, k);
#pragma clang loop unroll(full)
	for (int i = 0; i < 8; i++) {
		ca = (wa >> (8 * i)) & 0xff;
		cb = (wb >> (8 * i)) & 0xff;
		if (ca != cb || ca == 0)
			return ca - cb;
	}
	return 0;
}
