// SPDX-License-Identifier: GPL-2.0
/*
 * dif.c - the DIF VM's kernel environment (core/dif/dif_env.h): how the
 * shared interpreter reads memory, built-in variables and probe arguments
 * inside dtrace.ko. Everything here runs in probe context: interrupts
 * off, possibly in NMI, under rcu_read_lock(). It never sleeps, allocates,
 * takes a lock or faults: every read of memory the VM does not own goes
 * through copy_from_kernel_nofault() or copy_from_user_nofault(), which
 * return an error instead of faulting (exception tables, page faults
 * disabled), and that error becomes DTRACEFLT_BADADDR.
 *
 *   load      kernel: copy_from_kernel_nofault (rejects user and
 *             non-canonical addresses); user: copy_from_user_nofault
 *             (NMI-aware, never sleeps)
 *   copystr   the same, a page at a time, stopping at the NUL
 *   builtin   timestamp, pid, tid, execname (current->comm), probe names...
 *   getarg    arg0-5 from dtrace_probe(), 6-11 from the provider's getargval
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "dtrace_impl.h"

const dif_limits_t dtrace_dif_limits = {
	.nregs = DIF_DIR_NREGS,
	.ntregs = DIF_DTR_NREGS,
	.max_len = DTRACE_MAX_DIFO_LEN,
	.max_intlen = DIF_INTOFF_MAX + 1,
	.max_strlen = 1024 * 1024,
	.max_varlen = 4096,
};

static bool dtrace_copy(void *dst, u64 addr, size_t size, enum dif_space sp)
{
	if (sp == DIF_SPACE_USER)
		return !copy_from_user_nofault(dst, (const void __user *)(uintptr_t)addr, size);
	return !copy_from_kernel_nofault(dst, (const void *)(uintptr_t)addr, size);
}

bool dtrace_read(u64 addr, void *dst, size_t size)
{
	return dtrace_copy(dst, addr, size, DIF_SPACE_KERNEL);
}

static uint64_t dtrace_env_load(void *env, uint64_t addr, uint32_t size, enum dif_space sp,
				uint16_t *fault)
{
	u64 v = 0;

	if (size > sizeof(v) || !dtrace_copy(&v, addr, size, sp)) {
		*fault = DTRACEFLT_BADADDR;
		return 0;
	}
	return v;	/* little-endian: the low size bytes, zero-extended */
}

static uint64_t dtrace_env_copystr(void *env, uint64_t addr, char *dst, uint64_t max,
				   enum dif_space sp, uint16_t *fault)
{
	u64 done = 0;

	if (max == 0)
		return 0;
	while (done + 1 < max) {
		u64 a = addr + done;
		u64 n = min_t(u64, max - 1 - done, PAGE_SIZE - offset_in_page(a));
		char *nul;

		if (!dtrace_copy(dst + done, a, n, sp)) {
			*fault = DTRACEFLT_BADADDR;
			dst[done] = '\0';
			return done;
		}
		nul = memchr(dst + done, '\0', n);
		if (nul)
			return nul - dst;
		done += n;
	}
	dst[done] = '\0';
	return done;
}

/*
 * errno: the error of the system call returning (a probe its provider
 * created with DTRACE_PROBE_F_ERRNO_RETURN, syscall:::return, whose arg0 is
 * the return value: -4095 .. -1 is an error), else 0. Linux keeps no
 * per-thread errno between calls as illumos' lwp_errno; the bpf engine
 * gives the same.
 */
static uint64_t dtrace_env_errno(const struct dtrace_mstate *ms)
{
	s64 rv = (s64)ms->args[0];

	if (!(ms->probe->flags & DTRACE_PROBE_F_ERRNO_RETURN))
		return 0;
	return rv < 0 && rv >= -4095 ? (uint64_t)-rv : 0;
}

/*
 * cgroup: the task's cgroup v2 id, bpf_get_current_cgroup_id()'s value (the
 * inode number of its directory under /sys/fs/cgroup); 0 without cgroups.
 */
static uint64_t dtrace_cgroup_id(struct task_struct *t)
{
#ifdef CONFIG_CGROUPS
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(t));
	rcu_read_unlock();
	return id;
#else
	return 0;
#endif
}

static uint64_t dtrace_env_builtin(void *env, uint32_t id, uint64_t ndx, uint16_t *fault)
{
	struct dtrace_mstate *ms = env;
	struct task_struct *t = current;

	switch (id) {
	case DIF_VAR_TIMESTAMP:
		return dtrace_mstate_timestamp(ms);
	case DIF_VAR_VTIMESTAMP:
		return READ_ONCE(t->se.sum_exec_runtime);
	case DIF_VAR_WALLTIMESTAMP:
		return ktime_get_real_fast_ns();
	case DIF_VAR_EPID:
		return ms->ecb->epid;
	case DIF_VAR_ID:
		return ms->probe->id;
	case DIF_VAR_PROBEPROV:
		return (uintptr_t)ms->probe->prov->name;
	case DIF_VAR_PROBEMOD:
		return (uintptr_t)ms->probe->mod;
	case DIF_VAR_PROBEFUNC:
		return (uintptr_t)ms->probe->func;
	case DIF_VAR_PROBENAME:
		return (uintptr_t)ms->probe->name;
	case DIF_VAR_CPU:
		return smp_processor_id();
	case DIF_VAR_PID:
		return task_tgid_nr(t);
	case DIF_VAR_TID:
		return task_pid_nr(t);
	case DIF_VAR_PPID:
		return task_tgid_nr(rcu_dereference(t->real_parent));
	case DIF_VAR_NSPID:
		return task_tgid_vnr(t);
	case DIF_VAR_NSTID:
		return task_pid_vnr(t);
	case DIF_VAR_NSPPID:
		return task_ppid_nr_ns(t, task_active_pid_ns(t));
	case DIF_VAR_CGROUP:
		return dtrace_cgroup_id(t);
	case DIF_VAR_UID:
		return from_kuid_munged(&init_user_ns, task_uid(t));
	case DIF_VAR_GID:
		return from_kgid_munged(&init_user_ns, task_cred_xxx(t, gid));
	case DIF_VAR_EXECNAME:
		return (uintptr_t)t->comm;
	case DIF_VAR_CURTHREAD:
		return (uintptr_t)t;
	case DIF_VAR_UREGS: {
		/*
		 * uregs[ndx]: slot ndx of the user-mode registers saved on
		 * entry to the kernel (regs.d names them); a kernel thread
		 * has none (illumos: no lwp, ILLOP).
		 */
		struct pt_regs *regs = task_pt_regs(t);

		if ((t->flags & PF_KTHREAD) ||
		    ndx >= sizeof(*regs) / sizeof(unsigned long)) {
			*fault = DTRACEFLT_ILLOP;
			return 0;
		}
		return ((unsigned long *)regs)[ndx];
	}
	case DIF_VAR_ZONENAME:
		return (uintptr_t)"global";
	case DIF_VAR_ERRNO:
		return dtrace_env_errno(ms);
	case DIF_VAR_IPL:
		return 0;	/* Linux has no interrupt priority levels: as bpf */
	case DIF_VAR_STACKDEPTH:
		return dtrace_getpcstack(NULL, 0, ms->probe->aframes);
	case DIF_VAR_CALLER: {
		u64 pcs[2] = { 0, 0 };

		/*
		 * illumos: an anchored probe (one in a function) is where the
		 * stack starts, so frame 0 is its caller; an unanchored one
		 * (profile-N) starts at the interrupted pc, its caller is frame 1.
		 */
		dtrace_getpcstack(pcs, 2, ms->probe->aframes);
		return ms->probe->func[0] ? pcs[0] : pcs[1];
	}
	case DIF_VAR_USTACKDEPTH:
		return dtrace_getustack(NULL, 0);
	case DIF_VAR_UCALLER: {
		u64 pcs[2] = { 0, 0 };

		/* illumos dtrace_getupcstack()'s [2]: frame 1, the caller. */
		dtrace_getustack(pcs, 2);
		return pcs[1];
	}
	default:
		*fault = DTRACEFLT_ILLOP;
		return 0;
	}
}

static uint64_t dtrace_env_getarg(void *env, uint64_t n, uint16_t *fault)
{
	const struct dtrace_mstate *ms = env;
	const struct dtrace_provider *prov = ms->probe->prov;

	if (n < DTRACE_PROBE_NARGS)
		return ms->args[n];
	if (n >= DTRACE_MAXARGS) {
		*fault = DTRACEFLT_ILLOP;
		return 0;
	}
	if (!prov->pops->dtps_getargval)
		return 0;
	return prov->pops->dtps_getargval(prov->arg, ms->probe->id, ms->probe->arg, (int)n,
					  ms->probe->aframes);
}

static void dtrace_env_copyin(void *env, uint64_t uaddr, void *dst, uint64_t size,
			      uint16_t *fault)
{
	if (!dtrace_copy(dst, uaddr, size, DIF_SPACE_USER))
		*fault = DTRACEFLT_BADADDR;
}

static uint64_t dtrace_env_progenyof(void *env, uint64_t pid)
{
	struct task_struct *t = current;
	int depth = 0;

	/* Bounded walk up real_parent (RCU-protected; we are a reader). */
	while (t && depth++ < 1024) {
		if (task_tgid_nr(t) == (pid_t)pid)
			return 1;
		if (t == rcu_dereference(t->real_parent))
			break;
		t = rcu_dereference(t->real_parent);
	}
	return 0;
}

const dif_env_ops_t dtrace_env_ops = {
	.load = dtrace_env_load,
	.copystr = dtrace_env_copystr,
	.builtin = dtrace_env_builtin,
	.getarg = dtrace_env_getarg,
	.copyin = dtrace_env_copyin,
	/* copyout, d_path: not in this milestone (ILLOP). */
	.speculation = dtrace_env_speculation,	/* spec.c */
	.progenyof = dtrace_env_progenyof,
};
