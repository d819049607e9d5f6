/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * subr_misc.bpf.c - the other subroutines (dif_subr.c): byte order,
 * getmajor/getminor, rand, alloca, bcopy, copyin, copyinto, copyinstr,
 * copyout, copyoutstr, inet_ntoa, progenyof.
 *
 * rand() is bpf_get_prandom_u32() twice (the interpreter's xoroshiro128+
 * state has nowhere to live per CPU; the values are as random).
 */
#include "dt_lib_impl.h"

DT_API u64 dt_subr_htons(struct dt_bpf_mem *m, u64 strsize, u64 v)
{
	return __builtin_bswap16((uint16_t)v);
}

DT_API u64 dt_subr_htonl(struct dt_bpf_mem *m, u64 strsize, u64 v)
{
	return __builtin_bswap32((uint32_t)v);
}

DT_API u64 dt_subr_htonll(struct dt_bpf_mem *m, u64 strsize, u64 v)
{
	return __builtin_bswap64(v);
}

DT_API u64 dt_subr_ntohs(struct dt_bpf_mem *m, u64 strsize, u64 v)
{
	return __builtin_bswap16((uint16_t)v);
}

DT_API u64 dt_subr_ntohl(struct dt_bpf_mem *m, u64 strsize, u64 v)
{
	return __builtin_bswap32((uint32_t)v);
}

DT_API u64 dt_subr_ntohll(struct dt_bpf_mem *m, u64 strsize, u64 v)
{
	return __builtin_bswap64(v);
}

/* Linux dev_t: 12-bit major above a 20-bit minor. */
DT_API u64 dt_subr_getmajor(struct dt_bpf_mem *m, u64 strsize, u64 dev)
{
	return (uint32_t)dev >> 20;
}

DT_API u64 dt_subr_getminor(struct dt_bpf_mem *m, u64 strsize, u64 dev)
{
	return dev & 0xfffff;
}

DT_API u64 dt_subr_rand(struct dt_bpf_mem *m, u64 strsize)
{
	return ((u64)bpf_get_prandom_u32() << 32) | bpf_get_prandom_u32();
}

DT_API u64 dt_subr_alloca(struct dt_bpf_mem *m, u64 strsize, u64 size)
{
	return dt_alloc(m, size);
}

DT_API u64 dt_subr_bcopy(struct dt_bpf_mem *m, u64 strsize, u64 src, u64 dst, u64 size)
{
	return dt_copy_to(m, dst, src, size, 0);
}

DT_API u64 dt_subr_copyin(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 size)
{
	u64 d = dt_alloc(m, size);

	if (!d)
		return 0;
	dt_copy_to(m, d, uaddr, size, 1);
	return m->fault.code ? 0 : d;
}

DT_API u64 dt_subr_copyinto(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 size, u64 dst)
{
	return dt_copy_to(m, dst, uaddr, size, 1);
}

DT_API u64 dt_subr_copyinstr(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 len)
{
	u64 size = dt_strsize(strsize), d;
	long n;

	if (len < size)
		size = len + 1;
	d = dt_alloc(m, size);
	if (!d)
		return 0;
	n = dt_rd_str(m, DT_OFF(scratch) + DT_BPF_TAG_OFF(d), size, uaddr, 1);
	if (n < 0)
		return 0;
	dt_str_trim(m, d, size, n);
	return d;
}

/*
 * copyout(buf, uaddr, size) and copyoutstr(str, uaddr, maxlen): the
 * interpreter's subr_copyout. Destructive: the engine refuses programs
 * calling them without -w. The source must be DTrace-owned memory (a
 * tagged address: scratch, the string table, variables), else BADADDR at
 * it. bpf_probe_write_user takes its source from map memory: the bytes are
 * staged in DT_TMP_A and written DT_TMP_SIZE at a time. A write the kernel
 * refuses (an unmapped or read-only page, or one not present: probe
 * context cannot fault pages in) faults BADADDR at uaddr, as the
 * interpreter reports it.
 *
 * Difference: copyoutstr() writes at most DT_CHUNK - 1 characters and the
 * NUL (strings are at most strsize, DT_BPF_STRSIZE_MAX, long).
 */
#define DT_COPYOUT_CHUNKS (DT_BPF_GLOBALS_MAX / DT_TMP_SIZE) /* the largest region */

/* Write n (1..DT_TMP_SIZE) bytes of DT_TMP_A to uaddr; 0, or -1 after faulting. */
DT_INLINE long dt_put_user(struct dt_bpf_mem *m, u64 uaddr, u64 n, u64 fault_addr)
{
	n = DT_CLAMP(n - 1, DT_TMP_SIZE - 1) + 1;
	if (bpf_probe_write_user((void *)uaddr, DT_SP(m, DT_TMP_A), n)) {
		dt_fault(m, DTRACEFLT_BADADDR, fault_addr);
		return -1;
	}
	return 0;
}

DT_API u64 dt_subr_copyout(struct dt_bpf_mem *m, u64 strsize, u64 src, u64 uaddr, u64 size)
{
	u64 s, avail, k, n;

	if (!(src & DT_BPF_TAG_MASK))
		return dt_fault(m, DTRACEFLT_BADADDR, src);
	if (dt_resolve(m, src, size, &s, &avail))
		return 0;
	/* One state whatever the source (dt_copy_to): s through map memory. */
	*(u64 *)DT_SP(m, DT_RES(15)) = s;
	s = *(u64 *)DT_SP(m, DT_RES(15));
#pragma clang loop unroll(disable)
	for (k = 0; k < DT_COPYOUT_CHUNKS; k++) {
		if (k * DT_TMP_SIZE >= size)
			break;
		n = size - k * DT_TMP_SIZE;
		if (n > DT_TMP_SIZE)
			n = DT_TMP_SIZE;
		n = DT_CLAMP(n - 1, DT_TMP_SIZE - 1) + 1;
		if (bpf_probe_read_kernel(DT_SP(m, DT_TMP_A), n, (void *)(s + k * DT_TMP_SIZE)))
			return dt_fault(m, DTRACEFLT_BADADDR, src);
		if (dt_put_user(m, uaddr + k * DT_TMP_SIZE, n, uaddr))
			return 0;
	}
	return 0;
}

DT_API u64 dt_subr_copyoutstr(struct dt_bpf_mem *m, u64 strsize, u64 src, u64 uaddr, u64 maxlen)
{
	long len;
	u64 n;

	if (!(src & DT_BPF_TAG_MASK))
		return dt_fault(m, DTRACEFLT_BADADDR, src);
	if (maxlen == 0)
		return 0;
	/* The string and its NUL in DT_TMP_A; at most maxlen bytes go out. */
	len = dt_rd_str(m, DT_OFF(scratch) + DT_TMP_A, maxlen < DT_CHUNK ? maxlen + 1 : DT_CHUNK,
			src, 0);
	if (len < 0)
		return 0;
	n = (u64)len < maxlen ? (u64)len + 1 : maxlen;
	dt_put_user(m, uaddr, n, uaddr);
	return 0;
}

/* Decimal digits of b (0..255) at scratch[o + pos]; returns the new pos. */
DT_INLINE u64 dt_put_dec(struct dt_bpf_mem *m, u64 o, u64 pos, u64 b)
{
	if (b >= 100)
		m->scratch[o + (pos++ & 15)] = '0' + b / 100;
	if (b >= 10)
		m->scratch[o + (pos++ & 15)] = '0' + (b / 10) % 10;
	m->scratch[o + (pos++ & 15)] = '0' + b % 10;
	return pos;
}

/* inet_ntoa(&ipaddr): dotted quad of the 4 bytes at addr (tagged or kernel). */
DT_API u64 dt_subr_inet_ntoa(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	uint32_t a = 0;
	u64 src, avail, d, o, pos = 0;

	if (dt_resolve(m, addr, 4, &src, &avail))
		return 0;
	if (bpf_probe_read_kernel(&a, 4, (void *)src))
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(addr, 0));
	d = dt_alloc(m, 16);
	if (!d)
		return 0;
	o = DT_CLAMP(DT_BPF_TAG_OFF(d), DT_SCRATCH_USABLE - 16);
	pos = dt_put_dec(m, o, pos, a & 0xff);
	m->scratch[o + (pos++ & 15)] = '.';
	pos = dt_put_dec(m, o, pos, (a >> 8) & 0xff);
	m->scratch[o + (pos++ & 15)] = '.';
	pos = dt_put_dec(m, o, pos, (a >> 16) & 0xff);
	m->scratch[o + (pos++ & 15)] = '.';
	dt_put_dec(m, o, pos, a >> 24);
	return d;
}

/* A hex digit, lower case. */
DT_INLINE char dt_hexdig(u64 x)
{
	x &= 15;
	return (char)(x < 10 ? '0' + x : 'a' + (x - 10));
}

/*
 * link_ntop(type, &hwaddr): as dif_subr.c's subr_link_ntop, the bytes of an
 * Ethernet (ARPHRD_ETHER, 6) or InfiniBand (ARPHRD_INFINIBAND, 20) address
 * in hex joined by ':'; another type faults ILLOP.
 */
DT_API u64 dt_subr_link_ntop(struct dt_bpf_mem *m, u64 strsize, u64 type, u64 addr)
{
	uint8_t a[20] = {};
	u64 src, avail, d, o, n, i;

	if (type == 1)
		n = 6;
	else if (type == 32)
		n = 20;
	else
		return dt_fault(m, DTRACEFLT_ILLOP, type);
	if (dt_resolve(m, addr, n, &src, &avail))
		return 0;
	if (bpf_probe_read_kernel(a, n == 6 ? 6 : 20, (void *)src))
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(addr, 0));
	d = dt_alloc(m, 60);
	if (!d)
		return 0;
	o = DT_CLAMP(DT_BPF_TAG_OFF(d), DT_SCRATCH_USABLE - 60);
	for (i = 0; i < 20 && i < n; i++) {
		m->scratch[o + 3 * i] = dt_hexdig(a[i] >> 4);
		m->scratch[o + 3 * i + 1] = dt_hexdig(a[i]);
		m->scratch[o + 3 * i + 2] = i + 1 < n ? ':' : '\0';
	}
	return d;
}

/* progenyof(pid): the current process is pid or descends from it (64 levels). */
DT_API u64 dt_subr_progenyof(struct dt_bpf_mem *m, u64 strsize, u64 pid)
{
	struct dt_bpf_status *st = dt_map0(&dt_status);
	u64 task = bpf_get_current_task(), parent = 0;
	uint32_t tgid = 0;

	if (!st || !st->task_real_parent || !st->task_tgid)
		return dt_fault(m, DTRACEFLT_ILLOP, 11 /* DIF_SUBR_PROGENYOF */);
#pragma clang loop unroll(disable)
	for (int i = 0; i < 64 && task; i++) {
		if (bpf_probe_read_kernel(&tgid, 4, (void *)(task + st->task_tgid)))
			break;
		if (tgid == (uint32_t)pid)
			return 1;
		if (bpf_probe_read_kernel(&parent, 8, (void *)(task + st->task_real_parent)) ||
		    parent == task)
			break;
		task = parent;
	}
	return 0;
}
