/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * builtins.bpf.c - built-in variables (dt_builtin): process and thread
 * ids from bpf_get_current_pid_tgid (pid = tgid, tid = the thread's pid),
 * credentials, execname (comm), probe names from dt_probes[m->epid],
 * timestamps, stack depths and callers from bpf_get_stack, and what needs
 * task_struct offsets (ppid, vtimestamp, the ns* ids) from dt_status
 * (dt_bpf_abi.h); cgroup from bpf_get_current_cgroup_id.
 * String variables are scratch copies of strsize bytes.
 */
#include "dt_lib_impl.h"

/* stackdepth: 256 frames, as before the temporaries grew (the helper zeroes the rest). */
#define DT_STACK_TMP 2048

/* A fresh scratch string holding n bytes (n < strsize) from map memory src. */
DT_INLINE u64 dt_str_from(struct dt_bpf_mem *m, const void *src, u64 n, u64 strsize)
{
	u64 d;

	strsize = dt_strsize(strsize);
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	if (n > strsize - 1)
		n = strsize - 1;
	dt_xfer((uint8_t *)m, DT_OFF(scratch) + DT_BPF_TAG_OFF(d), DT_MEM_SIZE, (u64)src, n,
		DT_X_KERNEL);
	/* The source's own NUL padding is copied too; terminate in any case. */
	return d;
}

/* The task_struct word at task + off (size 4 or 8), or fault ILLOP on var. */
DT_INLINE u64 dt_task_read(struct dt_bpf_mem *m, u64 task, u64 off, u64 size, u64 var)
{
	u64 v = 0;

	if (!off || !task || bpf_probe_read_kernel(&v, DT_CLAMP(size, 8), (void *)(task + off)))
		return dt_fault(m, DTRACEFLT_ILLOP, var);
	return v;
}

/* Frame k (0 or 1) of the kernel or user stack, 0 if there is none. */
DT_INLINE u64 dt_frame(void *ctx, struct dt_bpf_mem *m, u64 k, u64 flags)
{
	u64 *f = (u64 *)DT_SP(m, DT_TMP_A);
	long n;

	f[0] = f[1] = 0;
	n = bpf_get_stack(ctx, f, 16, flags);
	if (n < (long)((k + 1) * 8))
		return 0;
	return k ? f[1] : f[0];
}

/*
 * How many kernel frames to skip so that the stack begins where the probe
 * is, past the tracer's own frames (the program, its trampoline or
 * kprobe handler, the tracepoint's dispatch), as illumos' aframes do:
 *   fbt (m->kfunc_ip)  the frames up to the probed function's own entry
 *                      (a return address within its first bytes: func+5
 *                      after fentry's call, func+1 at a kprobe's int3 or
 *                      ftrace handler), so that the stack begins at its
 *                      caller; 0 when it is not among the first
 *                      DT_KSKIP_MAX frames (a kretprobe's stack already
 *                      begins at the return site)
 *   raw tracepoints    the frames up to the last one in the tracing
 *   (m->ktracer)       machinery's text, so that the stack begins at the
 *                      tracepoint's call site
 * and 0 elsewhere.
 */
#define DT_KSKIP_MAX 10
#define DT_KFUNC_SPAN 16
DT_INLINE u64 dt_kskip(void *ctx, struct dt_bpf_mem *m)
{
	u64 *f = (u64 *)DT_SP(m, DT_TMP_A);
	u64 i, k, skip = 0;
	long n;

	if (!m->kfunc_ip && !m->ktracer[1])
		return 0;
	n = bpf_get_stack(ctx, f, DT_KSKIP_MAX * 8, 0);
	for (i = 0; i < DT_KSKIP_MAX && (long)(i * 8) < n; i++) {
		if (m->kfunc_ip) {
			if (f[i] - m->kfunc_ip < DT_KFUNC_SPAN)
				return i + 1;
			continue;
		}
		for (k = 0; k < DT_BPF_KTRACER; k++)
			if (f[i] - m->ktracer[2 * k] < m->ktracer[2 * k + 1])
				skip = i + 1;
	}
	return skip;
}

/* The kernel word of `size` (4 or 8) bytes at addr; 0 for a NULL addr. */
DT_INLINE u64 dt_kread(struct dt_bpf_mem *m, u64 addr, u64 size, u64 var)
{
	u64 v = 0;

	if (!addr)
		return 0;
	if (bpf_probe_read_kernel(&v, DT_CLAMP(size, 8), (void *)addr))
		return dt_fault(m, DTRACEFLT_BADADDR, addr);
	return size == 4 ? (uint32_t)v : v;
}

/*
 * nspid, nstid, nsppid: the number the current thread's own pid namespace
 * gives it, its process or its parent process (the kernel's task_pid_vnr,
 * task_tgid_vnr, task_ppid_nr_ns(t, task_active_pid_ns(t))). A struct pid
 * holds one struct upid { nr, ns } per level from the root namespace to
 * the one it was made in; the thread's namespace is the last of its own.
 * A parent made in an outer namespace has no number in it: 0, as
 * getppid() returns there.
 */
DT_INLINE u64 dt_nspid(struct dt_bpf_mem *m, struct dt_bpf_status *st, u64 var)
{
	u64 task = bpf_get_current_task(), pid, lvl, ns, who, wpid, at;

	if (!st->upid_size)
		return dt_fault(m, DTRACEFLT_ILLOP, var);
	pid = dt_kread(m, task + st->task_thread_pid, 8, var);
	if (!pid)
		return 0;
	lvl = dt_kread(m, pid + st->pid_level, 4, var);
	at = st->pid_numbers + lvl * st->upid_size;
	if (var == DIF_VAR_NSTID)
		return dt_kread(m, pid + at + st->upid_nr, 4, var);
	ns = dt_kread(m, pid + at + st->upid_ns, 8, var);
	who = task;
	if (var == DIF_VAR_NSPPID)
		who = dt_kread(m, task + st->task_real_parent, 8, var);
	if (!who)
		return 0;
	who = dt_kread(m, who + st->task_group_leader, 8, var);
	if (!who)
		return 0;
	wpid = dt_kread(m, who + st->task_thread_pid, 8, var);
	if (!wpid || m->fault.code || dt_kread(m, wpid + st->pid_level, 4, var) < lvl)
		return 0;
	if (dt_kread(m, wpid + at + st->upid_ns, 8, var) != ns)
		return 0;
	return dt_kread(m, wpid + at + st->upid_nr, 4, var);
}

DT_API u64 dt_uregs(struct dt_bpf_mem *m, u64 i)
{
	u64 regs, v = 0;

	if (i > 20) /* sizeof(struct pt_regs) / 8 - 1 on x86_64 */
		return dt_fault(m, DTRACEFLT_ILLOP, DIF_VAR_UREGS);
	regs = (u64)bpf_task_pt_regs(bpf_get_current_task_btf());
	if (!regs || bpf_probe_read_kernel(&v, 8, (void *)(regs + i * 8)))
		return dt_fault(m, DTRACEFLT_BADADDR, regs + i * 8);
	return v;
}

DT_API u64 dt_builtin(void *ctx, struct dt_bpf_mem *m, u64 var, u64 strsize)
{
	struct dt_bpf_status *st;
	struct dt_bpf_probe *p;
	uint32_t epid = (uint32_t)m->epid;
	u64 task, d;
	long n;

	if (var >= DIF_VAR_ARG0 && var <= DIF_VAR_ARG9)
		return m->args[DT_CLAMP(var - DIF_VAR_ARG0, DT_BPF_NARGS - 1)];
	switch (var) {
	case DIF_VAR_CURTHREAD: return bpf_get_current_task();
	case DIF_VAR_TIMESTAMP: return m->timestamp ? m->timestamp : bpf_ktime_get_ns();
	case DIF_VAR_EPID: return m->epid;
	case DIF_VAR_ERRNO: return m->errno_;
	case DIF_VAR_IPL: return 0;
	case DIF_VAR_CPU: return bpf_get_smp_processor_id();
	case DIF_VAR_PID: return bpf_get_current_pid_tgid() >> 32;
	case DIF_VAR_TID: return (uint32_t)bpf_get_current_pid_tgid();
	case DIF_VAR_UID: return (uint32_t)bpf_get_current_uid_gid();
	case DIF_VAR_GID: return bpf_get_current_uid_gid() >> 32;
	case DIF_VAR_ID:
	case DIF_VAR_PROBEPROV:
	case DIF_VAR_PROBEMOD:
	case DIF_VAR_PROBEFUNC:
	case DIF_VAR_PROBENAME:
		p = bpf_map_lookup_elem(&dt_probes, &epid);
		if (!p)
			return dt_fault(m, DTRACEFLT_ILLOP, var);
		if (var == DIF_VAR_ID)
			return p->id;
		if (var == DIF_VAR_PROBEPROV)
			return dt_str_from(m, p->prov, sizeof(p->prov), strsize);
		if (var == DIF_VAR_PROBEMOD)
			return dt_str_from(m, p->mod, sizeof(p->mod), strsize);
		if (var == DIF_VAR_PROBEFUNC)
			return dt_str_from(m, p->func, sizeof(p->func), strsize);
		return dt_str_from(m, p->name, sizeof(p->name), strsize);
	case DIF_VAR_EXECNAME:
		m->scratch[DT_TMP_B + 16] = 0;
		bpf_get_current_comm(&m->scratch[DT_TMP_B], 16);
		m->scratch[DT_TMP_B + 15] = 0;
		return dt_str_from(m, &m->scratch[DT_TMP_B], 16, strsize);
	case DIF_VAR_ZONENAME:
		d = dt_alloc(m, dt_strsize(strsize) < 7 ? 7 : dt_strsize(strsize));
		if (!d)
			return 0;
		n = DT_CLAMP(DT_BPF_TAG_OFF(d), DT_SCRATCH_USABLE - 8);
		m->scratch[n] = 'g';
		m->scratch[n + 1] = 'l';
		m->scratch[n + 2] = 'o';
		m->scratch[n + 3] = 'b';
		m->scratch[n + 4] = 'a';
		m->scratch[n + 5] = 'l';
		return d;
	case DIF_VAR_WALLTIMESTAMP:
		st = dt_map0(&dt_status);
		return bpf_ktime_get_boot_ns() + (st ? (u64)st->wall_offset : 0);
	case DIF_VAR_VTIMESTAMP:
	case DIF_VAR_PPID:
		st = dt_map0(&dt_status);
		if (!st)
			return dt_fault(m, DTRACEFLT_ILLOP, var);
		task = bpf_get_current_task();
		if (var == DIF_VAR_VTIMESTAMP)
			return dt_task_read(m, task, st->task_sum_exec, 8, var);
		task = dt_task_read(m, task, st->task_real_parent, 8, var);
		if (m->fault.code)
			return 0;
		return (uint32_t)dt_task_read(m, task, st->task_tgid, 4, var);
	case DIF_VAR_NSPID:
	case DIF_VAR_NSTID:
	case DIF_VAR_NSPPID:
		st = dt_map0(&dt_status);
		if (!st)
			return dt_fault(m, DTRACEFLT_ILLOP, var);
		return dt_nspid(m, st, var);
	case DIF_VAR_CGROUP: return bpf_get_current_cgroup_id();
	case DIF_VAR_STACKDEPTH:
	case DIF_VAR_USTACKDEPTH:
		n = bpf_get_stack(ctx, &m->scratch[DT_TMP_A], DT_STACK_TMP,
				  var == DIF_VAR_USTACKDEPTH ? BPF_F_USER_STACK : dt_kskip(ctx, m));
		if (n <= 0)
			return 0;
		/* At a function's entry the caller is one frame more (unless
		 * the kernel put it in: 6.13 and later). */
		if (var == DIF_VAR_USTACKDEPTH && m->uentry_ret &&
		    !(n >= 16 && *(u64 *)&m->scratch[DT_TMP_A + 8] == m->uentry_ret))
			n += 8;
		st = dt_map0(&dt_status);
		if (st && st->maxframes && (u64)n / 8 > st->maxframes)
			return st->maxframes;
		return (u64)n / 8;
	case DIF_VAR_CALLER:
		/* At fbt the first frame left is the caller's return site. */
		if (m->kfunc_ip)
			return dt_frame(ctx, m, 0, dt_kskip(ctx, m));
		/*
		 * At a raw tracepoint the first frame left is the call site:
		 * as illumos (and the kmod engine), the caller of a probe in
		 * a function (anchored) is that frame, of one that names no
		 * function the frame after it.
		 */
		if (m->ktracer[1]) {
			p = bpf_map_lookup_elem(&dt_probes, &epid);
			return dt_frame(ctx, m, p && p->func[0] ? 0 : 1, dt_kskip(ctx, m));
		}
		return dt_frame(ctx, m, 1, 0);
	/*
	 * illumos: caller is the probed function's caller (kernel frame 1);
	 * ucaller is ustack[2] of dtrace_getupcstack(ustack, 3): [0] the pid,
	 * [1] the user pc, [2] "the caller, which is what we're after" --
	 * user frame 1, the second line of ustack().
	 */
	case DIF_VAR_UCALLER:
		/* At a function's entry frame 1 is the return address. */
		if (m->uentry_ret)
			return m->uentry_ret;
		return dt_frame(ctx, m, 1, BPF_F_USER_STACK);
	default: return dt_fault(m, DTRACEFLT_ILLOP, var);
	}
}

/* stack(): nframes kernel pcs at m->buf[off], zero-filled after the last. */
DT_API u64 dt_rec_stack(void *ctx, struct dt_bpf_mem *m, u64 off, u64 nframes)
{
	u64 size = nframes * 8;

	if (nframes > 256 || off > DT_BPF_BUF_SIZE + 16 || size > DT_BPF_BUF_SIZE + 16 - off)
		return dt_fault(m, DTRACEFLT_ILLOP, off);
	size = DT_CLAMP(size, 2048);
	if (size)
		bpf_get_stack(ctx, &m->buf[DT_CLAMP(off, DT_BPF_BUF_SIZE + 16)], size,
			      dt_kskip(ctx, m));
	return 0;
}

/*
 * ustack(): the illumos record layout (as the user engine's fire.cc): the
 * pid, then nframes user pcs, zero-filled; the record is (nframes + 1) * 8
 * bytes at m->buf[off]. At a function's first instruction (m->uentry_ret)
 * the frame pointer chain skips the caller: the pc, then the return
 * address, then the chain (illumos dtrace_getupcstack(), CPU_DTRACE_ENTRY).
 */
DT_API u64 dt_rec_ustack(void *ctx, struct dt_bpf_mem *m, u64 off, u64 nframes)
{
	u64 size = nframes * 8;

	if (nframes > 256 || off > DT_BPF_BUF_SIZE + 16 || size + 8 > DT_BPF_BUF_SIZE + 16 - off)
		return dt_fault(m, DTRACEFLT_ILLOP, off);
	off = DT_CLAMP(off, DT_BPF_BUF_SIZE + 8);
	*(u64 *)&m->buf[off] = bpf_get_current_pid_tgid() >> 32;
	size = DT_CLAMP(size, 2048);
	if (size >= 16 && m->uentry_ret) {
		u64 *f = (u64 *)&m->buf[DT_CLAMP(off + 8, DT_BPF_BUF_SIZE)];

		bpf_get_stack(ctx, &f[1], DT_CLAMP(size - 8, 2048), BPF_F_USER_STACK);
		/* Kernels since 6.13 put the return address in themselves. */
		if (size >= 24 && f[2] == m->uentry_ret) {
			bpf_get_stack(ctx, f, size, BPF_F_USER_STACK);
			return 0;
		}
		f[0] = f[1];
		f[1] = m->uentry_ret;
		return 0;
	}
	if (size)
		bpf_get_stack(ctx, &m->buf[DT_CLAMP(off + 8, DT_BPF_BUF_SIZE + 16)], size,
			      BPF_F_USER_STACK);
	return 0;
}

/*
 * ustack() for the consumer's DWARF unwinder (-x ustackbytes, as perf's
 * --call-graph dwarf): the user registers the task entered the kernel
 * with (a uprobe's trap, a profile interrupt from user mode, a system
 * call) and size - DT_BPF_USTACK_HDR bytes of its stack from sp. The
 * copy goes in pieces aligned to DT_BPF_USTACK_CHUNK, so that the end of
 * the stack's mapping (a page boundary) ends it rather than failing it
 * whole; word 1 says how many bytes came. A task without user registers
 * (a kernel thread) records the pid and zeros: no frames.
 */
DT_API u64 dt_rec_ustack_regs(void *ctx, struct dt_bpf_mem *m, u64 off, u64 size)
{
	u64 regs, sp = 0, want, done = 0, chunk, i;
	u64 *h;

	if (size < DT_BPF_USTACK_HDR || off > DT_BPF_BUF_SIZE || size > DT_BPF_BUF_SIZE + 16 - off)
		return dt_fault(m, DTRACEFLT_ILLOP, off);
	off = DT_CLAMP(off, DT_BPF_BUF_SIZE - DT_BPF_USTACK_HDR);
	h = (u64 *)&m->buf[off];
	h[0] = bpf_get_current_pid_tgid() >> 32;
	h[1] = DT_BPF_USTACK_MAGIC;
	h[2] = h[3] = h[4] = 0;
	regs = (u64)bpf_task_pt_regs(bpf_get_current_task_btf());
	/* struct pt_regs (x86_64): bp is word 4, ip 16, sp 19. */
	if (!regs || bpf_probe_read_kernel(&h[2], 8, (void *)(regs + 16 * 8)) ||
	    bpf_probe_read_kernel(&sp, 8, (void *)(regs + 19 * 8)) ||
	    bpf_probe_read_kernel(&h[4], 8, (void *)(regs + 4 * 8)))
		return 0;
	h[3] = sp;
	want = size - DT_BPF_USTACK_HDR;
	for (i = 0; i < DT_BPF_BUF_SIZE / DT_BPF_USTACK_CHUNK + 1; i++) {
		if (done >= want)
			break;
		chunk = DT_BPF_USTACK_CHUNK - ((sp + done) & (DT_BPF_USTACK_CHUNK - 1));
		if (chunk > want - done)
			chunk = want - done;
		chunk = DT_CLAMP(chunk, DT_BPF_USTACK_CHUNK);
		/* A last piece closer to the buffer's end than a whole one is
		 * left out: the verifier knows one bound for all. */
		if (chunk == 0 ||
		    off + DT_BPF_USTACK_HDR + done > DT_BPF_BUF_SIZE + 16 - DT_BPF_USTACK_CHUNK ||
		    bpf_probe_read_user(
			    &m->buf[DT_CLAMP(off + DT_BPF_USTACK_HDR + done,
					     DT_BPF_BUF_SIZE + 16 - DT_BPF_USTACK_CHUNK)],
			    chunk, (void *)(sp + done)))
			break;
		done += chunk;
	}
	h[1] = DT_BPF_USTACK_MAGIC | done;
	return 0;
}
