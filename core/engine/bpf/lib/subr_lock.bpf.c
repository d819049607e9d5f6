/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * subr_lock.bpf.c - the lock subroutines (dif_subr.c subr_mutex and
 * subr_rwlock): mutex_owned(), mutex_owner(), mutex_type_adaptive(),
 * mutex_type_spin() on a Linux struct mutex, rw_read_held(),
 * rw_write_held(), rw_iswriter() on a rwlock_t. Each reads the lock's word
 * as a DIF load does (dt_ld: DTrace-owned memory, or kernel memory with
 * bpf_probe_read_kernel; a misaligned address faults BADALIGN, an
 * unreadable one BADADDR at the address given).
 *
 * struct mutex: its owner word is the owning task_struct pointer with flag
 * bits below it (kernel/locking/mutex.c MUTEX_FLAGS; PREEMPT_RT's
 * rt_mutex_base RT_MUTEX_HAS_WAITERS). The runtime finds where the word is
 * and which bits are the pointer in the kernel's BTF (dt_bpf_status
 * mutex_owner, mutex_owner_mask; no BTF: mask 0, and they fault ILLOP).
 * As the Dynamic Tracing Guide has them: mutex_owner() is the owning
 * thread or NULL; mutex_owned() is non-zero when the calling thread holds
 * the mutex; a Linux mutex spins while its owner runs and sleeps
 * otherwise, so it is adaptive (mutex_type_adaptive() 1) and never a spin
 * mutex (mutex_type_spin() 0); those two read the word all the same, so a
 * bad address faults as in illumos (dtrace_load64 of the kmutex_t).
 *
 * rwlock_t: its first word is the queued rwlock's cnts
 * (include/asm-generic/qrwlock_types.h): readers from bit 9 up
 * (_QR_SHIFT), the writer's byte (_QW_LOCKED 0xff) and a waiting writer's
 * bit (_QW_WAITING 0x100) below. rw_read_held(): held by readers and no
 * writer; rw_write_held(): held by a writer; rw_iswriter(): held or
 * wanted by a writer.
 */
#include "dt_lib_impl.h"

/* uapi/dtrace/dif.h DIF_SUBR_* (the illegal value of an ILLOP fault). */
#define DT_SUBR_MUTEX_OWNED 1
#define DT_SUBR_MUTEX_OWNER 2
#define DT_SUBR_MUTEX_TYPE_ADAPTIVE 3
#define DT_SUBR_MUTEX_TYPE_SPIN 4

/* The owning task of the struct mutex at addr, or 0; faults as described above. */
DT_INLINE u64 dt_mutex_owner(struct dt_bpf_mem *m, u64 addr, u64 subr)
{
	struct dt_bpf_status *st = dt_map0(&dt_status);
	u64 word;

	if (!st || !st->mutex_owner_mask)
		return dt_fault(m, DTRACEFLT_ILLOP, subr);
	word = dt_ld(m, addr + st->mutex_owner, 8, 0);
	return m->fault.code ? 0 : word & st->mutex_owner_mask;
}

DT_API u64 dt_subr_mutex_owned(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	u64 owner = dt_mutex_owner(m, addr, DT_SUBR_MUTEX_OWNED);

	return owner != 0 && owner == bpf_get_current_task();
}

DT_API u64 dt_subr_mutex_owner(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	return dt_mutex_owner(m, addr, DT_SUBR_MUTEX_OWNER);
}

DT_API u64 dt_subr_mutex_type_adaptive(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	dt_mutex_owner(m, addr, DT_SUBR_MUTEX_TYPE_ADAPTIVE);
	return m->fault.code ? 0 : 1;
}

DT_API u64 dt_subr_mutex_type_spin(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	dt_mutex_owner(m, addr, DT_SUBR_MUTEX_TYPE_SPIN);
	return 0;
}

/* The rwlock_t's cnts word at addr (0 after a fault). */
DT_INLINE uint32_t dt_rwlock_cnts(struct dt_bpf_mem *m, u64 addr)
{
	uint32_t cnts = (uint32_t)dt_ld(m, addr, 4, 0);

	return m->fault.code ? 0 : cnts;
}

DT_API u64 dt_subr_rw_read_held(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	uint32_t cnts = dt_rwlock_cnts(m, addr);

	return (cnts & 0xff) == 0 && (cnts >> 9) != 0;
}

DT_API u64 dt_subr_rw_write_held(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	return (dt_rwlock_cnts(m, addr) & 0xff) == 0xff;
}

DT_API u64 dt_subr_rw_iswriter(struct dt_bpf_mem *m, u64 strsize, u64 addr)
{
	return (dt_rwlock_cnts(m, addr) & 0x1ff) != 0;
}
