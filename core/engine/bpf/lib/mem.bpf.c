/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * mem.bpf.c - memory: tagged-address resolution, the bounded copy
 * primitive (dt_xfer), loads (dt_ld, dt_uld), stores (dt_st), copys
 * (dt_copy), scratch allocation (dt_alloc, dt_strdup) and the record/key
 * writers (dt_rec_*, dt_key_*). Semantics: dif_emulate.c dif_load,
 * dif_store, dif_writable, dif_scratch_alloc.
 *
 * Differences from the interpreter, all in the illegal value of a fault:
 * a read the kernel refuses part-way reports the page boundary where the
 * readable part ends (the interpreter reads byte by byte and reports the
 * first bad byte: the same address for page-granular faults).
 */
#include "dt_lib_impl.h"

/*
 * Where a read of [addr, addr + size) goes. *src: the address to hand to
 * bpf_probe_read_kernel (for tagged addresses, the map memory); *avail: how
 * many bytes from there belong to the region (~0 untagged). Faults BADADDR
 * and returns -1 for a tagged range outside its region.
 */
DT_INLINE long dt_resolve(struct dt_bpf_mem *m, u64 addr, u64 size, u64 *src, u64 *avail)
{
	u64 tag = addr & DT_BPF_TAG_MASK, off = DT_BPF_TAG_OFF(addr), lim;
	uint8_t *base;

	if (tag == DT_BPF_TAG_SCRATCH) {
		lim = m->scratch_used;
		if (lim > DT_SCRATCH_USABLE)
			lim = DT_SCRATCH_USABLE;
		if (off >= lim || size > lim - off)
			goto bad;
		off = DT_CLAMP(off, DT_BPF_SCRATCH_SIZE - 1);
		*src = (u64)(m->scratch + off);
	} else if (tag == DT_BPF_TAG_STRTAB || tag == DT_BPF_TAG_GLOBALS) {
		lim = tag == DT_BPF_TAG_STRTAB ? DT_BPF_STRTAB_SIZE : DT_BPF_GLOBALS_MAX;
		base = dt_map0(tag == DT_BPF_TAG_STRTAB ? (void *)&dt_strtab : (void *)&dt_globals);
		if (!base || off >= lim || size > lim - off)
			goto bad;
		off = DT_CLAMP(off, 65535);
		*src = (u64)(base + off);
	} else {
		*src = addr;
		*avail = ~0ULL;
		return 0;
	}
	*avail = lim - off;
	return 0;
bad:
	dt_fault(m, DTRACEFLT_BADADDR, addr);
	return -1;
}

/* The first unreadable byte of a read at addr that the kernel refused. */
DT_INLINE u64 dt_badaddr(u64 addr, u64 user)
{
	uint8_t b;

	/* User copies report their start address, as the interpreter's copyin op. */
	if (user || bpf_probe_read_kernel(&b, 1, (void *)addr))
		return addr;
	return (addr | 4095) + 1;
}

/*
 * One power-of-two piece of dt_xfer into base[0 .. LIM): n_ is 0 or P
 * (size & P), so the verifier sees a size in [0, P] at an offset clamped to
 * [0, LIM - P]. A failed read zeroes its destination (bpf_probe_read_*
 * memset it on error): that is how DT_X_ZERO zeroes, reading address 0.
 */
#define DT_XPIECE(P, LIM)                                                            \
	if ((P) <= (LIM)) {                                                          \
		u64 n_ = size & (P), o_ = DT_CLAMP(off, (LIM) - (P));                \
		if (kind == DT_X_USER)                                               \
			r |= bpf_probe_read_user(base + o_, n_, (void *)src);        \
		else                                                                 \
			r |= bpf_probe_read_kernel(base + o_, n_, (void *)src);      \
		off += n_;                                                           \
		if (kind != DT_X_ZERO)                                               \
			src += n_;                                                   \
	}
#define DT_XPIECES(LIM)                                                              \
	DT_XPIECE(65536, LIM) DT_XPIECE(32768, LIM) DT_XPIECE(16384, LIM)            \
	DT_XPIECE(8192, LIM) DT_XPIECE(4096, LIM) DT_XPIECE(2048, LIM)               \
	DT_XPIECE(1024, LIM) DT_XPIECE(512, LIM) DT_XPIECE(256, LIM)                 \
	DT_XPIECE(128, LIM) DT_XPIECE(64, LIM) DT_XPIECE(32, LIM) DT_XPIECE(16, LIM) \
	DT_XPIECE(8, LIM) DT_XPIECE(4, LIM) DT_XPIECE(2, LIM) DT_XPIECE(1, LIM)

/*
 * Copy size bytes from src (kind: kernel/map or user memory) to
 * base[off .. off + size), or zero them (DT_X_ZERO, src 0). base is m, or
 * the dt_globals value when kind has DT_X_GLOBALS. No loop and no branch on
 * the size: one helper call per bit of the size, each proven in bounds on
 * its own, so the verifier walks this once per call in a few hundred
 * instructions. Returns 0, or 1 if the destination is out of bounds or a
 * read failed.
 */
DT_SUB long dt_xfer_(uint8_t *base, u64 off, u64 src, u64 size, u64 kind)
{
	u64 glob = kind & DT_X_GLOBALS, lim = glob ? DT_BPF_GLOBALS_MAX : DT_MEM_SIZE;
	long r = 0;

	kind &= 3;
	if (off > lim || size > lim - off)
		return 1;
	if (kind == DT_X_ZERO)
		src = 0;
	if (glob) {
		DT_XPIECES(DT_BPF_GLOBALS_MAX)
	} else {
		DT_XPIECES(DT_MEM_SIZE)
	}
	return kind == DT_X_ZERO ? 0 : r != 0;
}

/*
 * Read the string at addr (tagged or kernel; user when user) into
 * m[moff ..], at most n - 1 characters and a NUL (n <= DT_CHUNK). Returns
 * its length, or -1 after faulting BADADDR.
 */
DT_SUB long dt_rd_str(struct dt_bpf_mem *m, u64 moff, u64 n, u64 addr, u64 user)
{
	u64 src, avail, limited = 0;
	uint8_t *p, last = 0;
	long r;

	if (n == 0)
		return 0;
	if (moff > DT_MEM_SIZE - DT_CHUNK || n > DT_CHUNK)
		return dt_fault(m, DTRACEFLT_ILLOP, moff) - 1;
	if (user) {
		src = addr;
		avail = ~0ULL;
	} else if (dt_resolve(m, addr, 1, &src, &avail)) {
		return -1;
	}
	if (n > avail) {
		n = avail;
		limited = 1;
	}
	p = (uint8_t *)m + DT_CLAMP(moff, DT_MEM_SIZE - DT_CHUNK);
	n = DT_CLAMP(n, DT_CHUNK);
	if (user)
		r = bpf_probe_read_user_str(p, n, (void *)src);
	else
		r = bpf_probe_read_kernel_str(p, n, (void *)src);
	if (r < 0) {
		dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(addr, user));
		return -1;
	}
	if (limited && (u64)r == n) {
		/*
		 * It reached the end of the DTrace memory holding it (alloca()'d
		 * bytes that copyinto() filled, say): the string ends there,
		 * with the region's last byte. n < the n asked for, so the NUL
		 * after it has room.
		 */
		bpf_probe_read_kernel(&last, 1, (void *)(src + n - 1));
		if (last != 0) {
			p[DT_CLAMP(n - 1, DT_CHUNK - 1)] = last;
			p[DT_CLAMP(n, DT_CHUNK - 1)] = 0;
			r = (long)n + 1;
		}
	}
	return r > 0 ? r - 1 : 0;
}

/* Fetch the string at addr into temporary tmp (DT_TMP_A/B): its length, or -1. */
DT_INLINE long dt_fetch(struct dt_bpf_mem *m, u64 addr, u64 tmp, u64 strsize)
{
	return dt_rd_str(m, DT_OFF(scratch) + tmp, strsize + 1, addr, 0);
}

/* The temporary's byte i (i < DT_TMP_SIZE). */
DT_INLINE uint8_t *dt_tmp(struct dt_bpf_mem *m, u64 tmp, u64 i)
{
	return &m->scratch[DT_CLAMP(tmp + i, DT_BPF_SCRATCH_SIZE - 1)];
}

DT_INLINE u64 dt_strsize(u64 strsize)
{
	return strsize == 0 || strsize > DT_BPF_STRSIZE_MAX ? DT_BPF_STRSIZE_MAX : strsize;
}

/* strsize for the byte-at-a-time loops (the translator keeps it <= DT_BPF_STRFUNC_MAX). */
DT_INLINE u64 dt_fstrsize(u64 strsize)
{
	return strsize == 0 || strsize > DT_BPF_STRFUNC_MAX ? DT_BPF_STRFUNC_MAX : strsize;
}

DT_INLINE u64 dt_extend(u64 v, u64 size, u64 is_signed)
{
	u64 sh = 64 - size * 8;

	return is_signed ? (u64)((int64_t)(v << sh) >> sh) : v;
}

DT_INLINE u64 dt_size(u64 size)
{
	return size == 1 || size == 2 || size == 4 ? size : 8;
}

DT_API u64 dt_ld(struct dt_bpf_mem *m, u64 addr, u64 size, u64 is_signed)
{
	u64 src, avail, v = 0;

	size = dt_size(size);
	if (addr & (size - 1))
		return dt_fault(m, DTRACEFLT_BADALIGN, addr);
	if (dt_resolve(m, addr, size, &src, &avail))
		return 0;
	if (bpf_probe_read_kernel(&v, DT_CLAMP(size, 8), (void *)src))
		return dt_fault(m, DTRACEFLT_BADADDR, addr);
	return dt_extend(v, size, is_signed);
}

DT_API u64 dt_uld(struct dt_bpf_mem *m, u64 addr, u64 size, u64 is_signed)
{
	u64 v = 0;

	size = dt_size(size);
	if (bpf_probe_read_user(&v, DT_CLAMP(size, 8), (void *)addr))
		return dt_fault(m, DTRACEFLT_BADADDR, addr);
	return dt_extend(v, size, is_signed);
}

/*
 * The writable range [addr, addr + size) (dif_writable): allocated scratch
 * or by-ref global storage. base, off and lim for dt_xfer; -1 if not writable.
 */
DT_INLINE long dt_writable(struct dt_bpf_mem *m, u64 addr, u64 size, uint8_t **base, u64 *off,
			   u64 *lim)
{
	u64 tag = addr & DT_BPF_TAG_MASK, o = DT_BPF_TAG_OFF(addr), used = m->scratch_used;

	if (tag == DT_BPF_TAG_SCRATCH) {
		if (used > DT_SCRATCH_USABLE)
			used = DT_SCRATCH_USABLE;
		if (o >= used || size > used - o)
			return -1;
		*base = (uint8_t *)m;
		*off = DT_OFF(scratch) + o;
		*lim = DT_MEM_SIZE;
		return 0;
	}
	if (tag == DT_BPF_TAG_GLOBALS) {
		*base = dt_map0(&dt_globals);
		if (!*base || o >= DT_BPF_GLOBALS_MAX || size > DT_BPF_GLOBALS_MAX - o)
			return -1;
		*off = o;
		*lim = DT_BPF_GLOBALS_MAX;
		return 0;
	}
	return -1;
}

/* Store the low size bytes of val at base[off], off + size <= LIM (checked). */
#define DT_STORE(LIM)                                                                 \
	switch (size) {                                                               \
	case 1: *(uint8_t *)(base + DT_CLAMP(off, (LIM) - 1)) = (uint8_t)val; break;  \
	case 2: *(uint16_t *)(base + DT_CLAMP(off, (LIM) - 2)) = (uint16_t)val; break; \
	case 4: *(uint32_t *)(base + DT_CLAMP(off, (LIM) - 4)) = (uint32_t)val; break; \
	default: *(u64 *)(base + DT_CLAMP(off, (LIM) - 8)) = val; break;              \
	}

/*
 * Write the scratch copy of a struct-valued dynamic variable back to its
 * map (dt_bpf_mem::wb_*; dvars.bpf.c dt_dvar_ref). The map's value size is
 * at most 4096 (dvars.bpf.c DT_VAL_MAX).
 */
DT_SUB u64 dt_wb_flush(struct dt_bpf_mem *m)
{
	u64 off = DT_BPF_TAG_OFF(m->wb_lo);
	void *p = &m->scratch[DT_CLAMP(off, DT_BPF_SCRATCH_SIZE - 4096)];

	if (off > DT_BPF_SCRATCH_SIZE - 4096)
		return 0;
	if (m->wb_map == 1) {
		bpf_map_update_elem(&dt_tls, m->wb_key, p, BPF_EXIST);
	} else if (m->wb_map == 2) {
		bpf_map_update_elem(&dt_dvars, m->wb_key, p, BPF_EXIST);
	} else if (m->wb_map == 3) {
		/* A clause-local's storage at m->locals[wb_key as a u64]. */
		u64 loff = *(u64 *)m->wb_key, size = m->wb_hi - m->wb_lo;

		if (loff < DT_BPF_LOCALS_SIZE && size <= DT_BPF_LOCALS_SIZE - loff)
			dt_xfer((uint8_t *)m, DT_OFF(locals) + loff, DT_MEM_SIZE, (u64)p, size,
				DT_X_KERNEL);
	}
	return 0;
}

DT_API u64 dt_st(struct dt_bpf_mem *m, u64 addr, u64 val, u64 size)
{
	uint8_t *base;
	u64 off, lim;

	size = dt_size(size);
	if (dt_writable(m, addr, size, &base, &off, &lim))
		return dt_fault(m, DTRACEFLT_BADADDR, addr);
	if (addr & (size - 1))
		return dt_fault(m, DTRACEFLT_BADALIGN, addr);
	if (lim == DT_MEM_SIZE) {
		DT_STORE(DT_MEM_SIZE)
		/* Into the copy of a struct-valued dynamic variable: write through. */
		if (m->wb_map && addr >= m->wb_lo && addr < m->wb_hi)
			dt_wb_flush(m);
	} else {
		DT_STORE(DT_BPF_GLOBALS_MAX)
	}
	return 0;
}

/* Copy size bytes from src (tagged/kernel, or user) to writable dst. */
DT_INLINE u64 dt_copy_to(struct dt_bpf_mem *m, u64 dst, u64 src, u64 size, u64 user)
{
	uint8_t *base;
	u64 off, lim, s = src, avail;
	long r;

	if (dt_writable(m, dst, size, &base, &off, &lim))
		return dt_fault(m, DTRACEFLT_BADADDR, dst);
	if (size == 0)
		return 0;
	if (!user && dt_resolve(m, src, size, &s, &avail))
		return 0;
	/*
	 * One state for the copy whatever the source was (a map's value or an
	 * address): s goes through map memory as a number.
	 */
	*(u64 *)DT_SP(m, DT_RES(15)) = s;
	s = *(u64 *)DT_SP(m, DT_RES(15));
	if (lim == DT_MEM_SIZE)
		r = dt_xfer_(base, off, s, size, user ? DT_X_USER : DT_X_KERNEL);
	else
		r = dt_xfer_(base, off, s, size,
			     (user ? DT_X_USER : DT_X_KERNEL) | DT_X_GLOBALS);
	if (r)
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(src, user));
	return 0;
}

DT_API u64 dt_copy(struct dt_bpf_mem *m, u64 dst, u64 src, u64 size)
{
	return dt_copy_to(m, dst, src, size, 0);
}

DT_API u64 dt_alloc(struct dt_bpf_mem *m, u64 size)
{
	u64 start = (m->scratch_used + 7) & ~7ULL;

	if (start > DT_SCRATCH_USABLE || size > DT_SCRATCH_USABLE - start)
		return dt_fault(m, DTRACEFLT_NOSCRATCH, 0);
	m->scratch_used = start + size;
	dt_xfer((uint8_t *)m, DT_OFF(scratch) + start, DT_MEM_SIZE, 0, size, DT_X_ZERO);
	return dt_scratch_addr(start);
}

/*
 * A string of len characters was just read into the newest allocation d
 * (size bytes): give back what follows its NUL, as strjoin does, so that a
 * clause handling long strsize-sized strings (strsize 4096) keeps only
 * their characters in scratch. The bytes given back are never read: a
 * string ends at its NUL.
 */
DT_INLINE void dt_str_trim(struct dt_bpf_mem *m, u64 d, u64 size, long len)
{
	u64 off = DT_BPF_TAG_OFF(d);

	if (len >= 0 && (u64)len < size && m->scratch_used == off + size)
		m->scratch_used = off + (u64)len + 1;
}

DT_API u64 dt_strdup(struct dt_bpf_mem *m, u64 src, u64 strsize)
{
	long len;
	u64 d;

	strsize = dt_strsize(strsize);
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	len = dt_rd_str(m, DT_OFF(scratch) + DT_BPF_TAG_OFF(d), strsize, src, 0);
	if (len < 0)
		return 0;
	dt_str_trim(m, d, strsize, len);
	return d;
}

/* A string into m[base + off, + size): NUL-padded; src 0 faults (BADADDR 0). */
DT_INLINE u64 dt_put_str(struct dt_bpf_mem *m, u64 base, u64 room, u64 off, u64 src, u64 size)
{
	if (off > room || size > room - off)
		return dt_fault(m, DTRACEFLT_ILLOP, off);
	dt_xfer((uint8_t *)m, base + off, DT_MEM_SIZE, 0, size, DT_X_ZERO);
	if (size == 0)
		return 0;
	dt_rd_str(m, base + off, size > DT_CHUNK ? DT_CHUNK : size, src, 0);
	return 0;
}

/*
 * size bytes from src (tagged or kernel) into m[base + off]. A tagged
 * source shorter than size is a smaller object, a string that a char
 * array of a translated struct holds (psinfo_t's pr_psargs from
 * copyinargs()): its bytes, then zeros.
 */
DT_INLINE u64 dt_put_bytes(struct dt_bpf_mem *m, u64 base, u64 room, u64 off, u64 src, u64 size)
{
	u64 s, avail;

	if (off > room || size > room - off)
		return dt_fault(m, DTRACEFLT_ILLOP, off);
	if ((src & DT_BPF_TAG_MASK) && !dt_resolve(m, src, 1, &s, &avail) && avail < size) {
		dt_xfer((uint8_t *)m, base + off, DT_MEM_SIZE, 0, size, DT_X_ZERO);
		size = avail;
	}
	if (dt_resolve(m, src, size, &s, &avail))
		return 0;
	*(u64 *)DT_SP(m, DT_RES(15)) = s; /* one state whatever the source (dt_copy_to) */
	s = *(u64 *)DT_SP(m, DT_RES(15));
	if (dt_xfer((uint8_t *)m, base + off, DT_MEM_SIZE, s, size, DT_X_KERNEL))
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(src, 0));
	return 0;
}

DT_API u64 dt_rec_str(struct dt_bpf_mem *m, u64 off, u64 src, u64 size)
{
	return dt_put_str(m, DT_OFF(buf), DT_BPF_BUF_SIZE + 16, off, src, size);
}

DT_API u64 dt_rec_bytes(struct dt_bpf_mem *m, u64 off, u64 src, u64 size)
{
	return dt_put_bytes(m, DT_OFF(buf), DT_BPF_BUF_SIZE + 16, off, src, size);
}

DT_API u64 dt_key_str(struct dt_bpf_mem *m, u64 off, u64 src, u64 size)
{
	return dt_put_str(m, DT_OFF(key), DT_BPF_AGG_KEY_SIZE, off, src, size);
}

DT_API u64 dt_key_bytes(struct dt_bpf_mem *m, u64 off, u64 src, u64 size)
{
	return dt_put_bytes(m, DT_OFF(key), DT_BPF_AGG_KEY_SIZE, off, src, size);
}
