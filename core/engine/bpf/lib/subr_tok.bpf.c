/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * subr_tok.bpf.c - strtok(str, delims) as the interpreter's subr_strtok
 * (dif_subr.c, illumos semantics): a non-NULL str is copied to the strtok
 * buffer (scratch[DT_STRTOK_BUF], DT_STRTOK_SIZE bytes above what dt_alloc
 * hands out) and tokenised there; the position after the token is kept in
 * m->strtok_addr for strtok(NULL, delims); no token left gives NULL. A
 * NULL str with no saved position faults BADADDR (the interpreter loads
 * from address 0).
 *
 * The position and the buffer belong to the probe firing, as illumos'
 * mstate dtms_strtok does: the translator clears m->strtok_addr in the
 * prologue, not per clause, and the clauses' scratch resets leave the
 * buffer alone, so strtok(NULL, ...) in a later clause of the same firing
 * continues (dtrace:::ERROR's clauses start with none and give the
 * firing's back, codegen_frame.cc). strtok_addr is the position's tagged
 * scratch address (DT_BPF_TAG_SCRATCH | DT_STRTOK_BUF + k), 0 for none;
 * no DIF load can read it (dt_resolve stops at DT_SCRATCH_USABLE), so
 * only this file does.
 *
 * The delimiters are a 256-bit set in DT_TMP_C; the scans are single
 * loops over the string fetched into DT_TMP_A, exits their only branches.
 */
#include "dt_lib_impl.h"

/* Is ch in the delimiter set (0 or 1, no branch)? */
DT_INLINE u64 dt_tok_isdelim(struct dt_bpf_mem *m, u64 ch)
{
	return (DT_SP(m, DT_TMP_C)[(ch >> 3) & 31] >> (ch & 7)) & 1;
}

DT_API u64 dt_subr_strtok(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 delims)
{
	u64 d, addr, k, ch, start, dlen;
	long len;

	strsize = dt_fstrsize(strsize);
	if (strsize > DT_STRTOK_SIZE) /* refused by the translator */
		return dt_fault(m, DTRACEFLT_ILLOP, 0);
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	if (s == 0) {
		addr = m->strtok_addr;
		if (!addr)
			return dt_fault(m, DTRACEFLT_BADADDR, 0);
	} else {
		m->strtok_addr = 0; /* until the copy is whole */
		if (dt_rd_str(m, DT_OFF(scratch) + DT_STRTOK_BUF, strsize, s, 0) < 0)
			return 0;
		addr = DT_BPF_TAG_SCRATCH | DT_STRTOK_BUF;
	}
	/* The delimiter set. */
	len = dt_fetch(m, delims, DT_TMP_B, strsize);
	if (len < 0)
		return 0;
	*(u64 *)DT_SP(m, DT_TMP_C) = 0;
	*(u64 *)DT_SP(m, DT_TMP_C + 8) = 0;
	*(u64 *)DT_SP(m, DT_TMP_C + 16) = 0;
	*(u64 *)DT_SP(m, DT_TMP_C + 24) = 0;
	dt_res_set(m, 0, (u64)len);
	dt_res_set(m, 1, addr);
	dt_res_set(m, 2, d);
	dlen = dt_res(m, 0) & (DT_TMP_SIZE - 1);
#pragma clang loop unroll(disable)
	for (k = 0; k < DT_BPF_STRFUNC_MAX; k++) {
		if (k >= dlen || k >= strsize)
			break;
		ch = DT_TB(m, DT_TMP_B, k);
		DT_SP(m, DT_TMP_C)[(ch >> 3) & 31] |= (uint8_t)(1 << (ch & 7));
	}
	/*
	 * The string from the position (the NUL is not a delimiter), out
	 * of the strtok buffer, which ends with a NUL within its
	 * DT_STRTOK_SIZE bytes: a helper copy, as dt_fetch's.
	 */
	k = DT_BPF_TAG_OFF(dt_res(m, 1)) - DT_STRTOK_BUF;
	len = bpf_probe_read_kernel_str(DT_SP(m, DT_TMP_A), DT_STRTOK_SIZE,
					DT_SP(m, DT_STRTOK_BUF) + DT_CLAMP(k, DT_STRTOK_SIZE - 1));
	if (len < 1)
		return dt_fault(m, DTRACEFLT_BADADDR, 0);
	len--;
	DT_SP(m, DT_TMP_C)[0] &= 0xfe;
	dt_res_set(m, 0, (u64)len);
	dt_res_set(m, 3, (u64)len);
	len = (long)(dt_res(m, 3) & (DT_TMP_SIZE - 1));
#pragma clang loop unroll(disable)
	for (k = 0; k <= DT_BPF_STRFUNC_MAX; k++) { /* skip leading delimiters */
		if (k >= (u64)len || k >= strsize)
			break;
		if (!dt_tok_isdelim(m, DT_TB(m, DT_TMP_A, k))) {
			dt_res_set(m, 0, k);
			break;
		}
	}
	start = dt_res(m, 0) & (DT_TMP_SIZE - 1);
	if (start >= dt_res(m, 3)) { /* nothing but delimiters */
		m->strtok_addr = 0;
		m->scratch_used = DT_BPF_TAG_OFF(dt_res(m, 2)); /* nothing returned */
		return 0;
	}
	dt_res_set(m, 4, start);
	dt_res_set(m, 5, dt_res(m, 3));
	start = dt_res(m, 4) & (DT_TMP_SIZE - 1);
	len = (long)(dt_res(m, 3) & (DT_TMP_SIZE - 1));
#pragma clang loop unroll(disable)
	for (k = 0; k <= DT_BPF_STRFUNC_MAX; k++) { /* the token: up to a delimiter, the NUL or size - 1 */
		if (start + k >= (u64)len || k >= strsize - 1)
			break;
		if (dt_tok_isdelim(m, DT_TB(m, DT_TMP_A, start + k))) {
			dt_res_set(m, 5, start + k);
			break;
		}
		dt_res_set(m, 5, start + k + 1);
	}
	start = dt_res(m, 4) & (DT_TMP_SIZE - 1);
	k = dt_res(m, 5) & (DT_TMP_SIZE - 1); /* the token's end */
	d = dt_res(m, 2);
	dt_mcpy(m, DT_BPF_TAG_OFF(d), &DT_TB(m, DT_TMP_A, start), k - start);
	m->strtok_addr = dt_res(m, 1) + k;
	return d;
}

/*
 * cleanpath(path): the interpreter's subr_cleanpath (illumos: "//", "/./"
 * and "/../" collapse; bounded by strsize). One loop; each iteration looks
 * at four characters c0..c3 and takes one of illumos' steps, computed
 * without branches (0/1 flags):
 *   A  c0 != '/'             c0 out                      1 in
 *   B  "//"                  nothing (rescan the 2nd /)  1 in
 *   C  "/x"  (x not / .)     "/x"                        2 in
 *   D1 "/./"                 nothing                     2 in
 *   D  "/.x" (x not / .)     "/.x"                       3 in
 *   E  "/..x" (x not / NUL)  "/..x"                      4 in
 *   F  "/../" or "/.."       back to the last '/' out    3 in
 * and stops after a NUL is written or consumed. illumos finds the last
 * '/' by scanning the output back; here the output's slash positions are
 * a stack (u16 in DT_TMP_C), so no loop nests. Four characters are
 * written at every step (the unused ones are overwritten later or lie
 * past the final NUL).
 *
 * Difference: the path is read up to strsize characters (the interpreter
 * can read further when the collapsed output stays shorter).
 */

/*
 * The loop, a subprogram of its own: its frame (about 200 bytes, where the
 * flags spill) is then not stacked on top of the frames of dt_fetch's
 * callees (dt_rd_str, dt_xfer_), so that a clause's frame, cleanpath's and
 * the deepest chain below it stay within the 512 bytes of combined stack
 * Linux 6.1's verifier allows (together they needed 544). The path is in
 * DT_TMP_A, the output at scratch offset dt_res(m, 0); the output's length
 * goes to dt_res(m, 1).
 */
DT_SUB u64 dt_cleanpath_walk(struct dt_bpf_mem *m, u64 strsize)
{
	u64 i = 0, j = 0, sp = 0, k, c0, c1, c2, c3, s0, s1, d1, s2, d2, e3;
	u64 A, C, D1, D, E, F, adv, nout, top, done, doff, prev;
	uint8_t *out, *src, *stack;

	dt_res_set(m, 1, 0);
	/* Output byte n is out[(doff + n) & mask]: in bounds without a branch. */
	out = DT_SP(m, 0);
	src = DT_SP(m, DT_TMP_A);
	stack = DT_SP(m, DT_TMP_C);
	doff = dt_res(m, 0);
	done = 0;
#pragma clang loop unroll(disable)
	for (k = 0; k <= DT_BPF_STRFUNC_MAX + 1; k++) {
		/* room for "/..c" and the NUL */
		if (k > strsize + 1 || j + 5 >= strsize || done)
			break;
		c0 = src[i & (DT_TMP_SIZE - 1)];
		c1 = src[(i + 1) & (DT_TMP_SIZE - 1)];
		c2 = src[(i + 2) & (DT_TMP_SIZE - 1)];
		c3 = src[(i + 3) & (DT_TMP_SIZE - 1)];
		s0 = dt_iszero(c0 ^ '/');
		s1 = dt_iszero(c1 ^ '/');
		d1 = dt_iszero(c1 ^ '.');
		s2 = dt_iszero(c2 ^ '/');
		d2 = dt_iszero(c2 ^ '.');
		e3 = dt_iszero(c3 ^ '/') | dt_iszero(c3);
		A = s0 ^ 1;
		C = s0 & ((s1 | d1) ^ 1);
		D1 = s0 & d1 & s2;
		D = s0 & d1 & ((s2 | d2) ^ 1);
		E = s0 & d1 & d2 & (e3 ^ 1);
		F = s0 & d1 & d2 & e3;
		/* in: A 1, B 1, C 2, D1 2, D 3, E 4, F 3; out: A 1, C 2, D 3, E 4 */
		nout = A + (C << 1) + D + (D << 1) + (E << 2);
		adv = nout + (s0 & s1) + (D1 << 1) + F + (F << 1);
		done = (A & dt_iszero(c0)) | (C & dt_iszero(c1)) | (D & dt_iszero(c2)) |
		       (F & dt_iszero(c3));
		/* The output characters (j + 4 < strsize here). */
		/*
		 * Steps that output nothing keep byte j (F with no '/' before
		 * it ends the result at j + 1, over byte j as it was).
		 */
		prev = out[(doff + j) & (DT_BPF_SCRATCH_SIZE - 1)];
		out[(doff + j) & (DT_BPF_SCRATCH_SIZE - 1)] =
			(uint8_t)dt_sel(A, c0, dt_sel(C | D | E, '/', prev));
		out[(doff + j + 1) & (DT_BPF_SCRATCH_SIZE - 1)] = (uint8_t)dt_sel(C, c1, '.');
		out[(doff + j + 2) & (DT_BPF_SCRATCH_SIZE - 1)] = (uint8_t)dt_sel(D, c2, '.');
		out[(doff + j + 3) & (DT_BPF_SCRATCH_SIZE - 1)] = (uint8_t)c3;
		/* F pops the last slash (none: 0); C, D, E push the one at j. */
		top = *(uint16_t *)(stack + (((sp - 1) * 2) & (DT_TMP_SIZE - 2))) * dt_nz(sp);
		*(uint16_t *)(stack + ((sp * 2) & (DT_TMP_SIZE - 2))) = (uint16_t)j;
		sp = sp + (C | D | E) - (F & dt_nz(sp));
		/* illumos, at "/.." and the NUL: d[++j] = '/', then the NUL over it. */
		j = dt_sel(F, top + dt_iszero(c3), j + nout);
		i += adv;
		dt_res_set(m, 1, j);
	}
	return 0;
}

DT_API u64 dt_subr_cleanpath(struct dt_bpf_mem *m, u64 strsize, u64 s)
{
	u64 d, j;
	long len;

	strsize = dt_fstrsize(strsize);
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	len = dt_fetch(m, s, DT_TMP_A, strsize);
	if (len < 0)
		return 0;
	dt_res_set(m, 0, DT_BPF_TAG_OFF(d));
	dt_cleanpath_walk(m, strsize);
	j = dt_res(m, 1);
	DT_SP(m, 0)[(dt_res(m, 0) + j) & (DT_BPF_SCRATCH_SIZE - 1)] = 0;
	return dt_res(m, 0) | DT_BPF_TAG_SCRATCH;
}
