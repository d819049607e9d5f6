// SPDX-License-Identifier: GPL-2.0
/*
 * stack.c - stacks in probe context (illumos dtrace_getpcstack(),
 * dtrace_getupcstack(), dtrace_getstackdepth(), dtrace_getustackdepth()):
 * what ustack(), jstack(), ustackdepth, ucaller, stackdepth and caller see.
 *
 *   kernel  the kernel's unwinder (stack_trace_save()), less the frames of
 *           dtrace.ko itself and the probe's artificial frames (aframes),
 *           and a tracepoint's iterator above a provider's handler: the
 *           first frame left is where the probe is
 *   user    the thread's user registers (task_pt_regs()): the pc, then a
 *           walk along the saved frame pointers, each frame read with
 *           copy_from_user_nofault() (no fault, no sleep, NMI-safe); it
 *           stops at a frame that cannot be read, a NULL return address,
 *           a frame pointer that does not move up the stack, or the bound.
 *           Code built without frame pointers loses frames, as on illumos.
 *           Kernel threads and 32-bit tasks have no user stack here.
 *
 * Probe context only: interrupts off, nothing allocated, bounded loops.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>

#include "dtrace_impl.h"

#define DTRACE_KSTACK_MAX	64	/* kernel frames looked at */
#define DTRACE_USTACK_MAX	1024	/* user frames walked (depth) */
#define DTRACE_ENTRY_SPAN	16	/* a function's entry: its first bytes */

/* dtrace_tp_iterator()'s symbol name; probe context owns it (interrupts off). */
static DEFINE_PER_CPU(char[KSYM_SYMBOL_LEN], dtrace_symbuf);

/*
 * Whether pc is in a tracepoint's iterator (__traceiter_<name>). A
 * tracepoint with one probe calls it directly (a static call); with more
 * (another tracer on it too) it calls its iterator, which calls each:
 * then that frame lies between a provider's handler (aframes) and the
 * tracepoint's call site, and is the tracer's, not the traced code's.
 */
static bool dtrace_tp_iterator(unsigned long pc)
{
	char *name = this_cpu_ptr(dtrace_symbuf);

	sprint_symbol_no_offset(name, pc);
	return !strncmp(name, "__traceiter_", strlen("__traceiter_"));
}
NOKPROBE_SYMBOL(dtrace_tp_iterator);

/* The current thread's user registers, or NULL (kernel thread, 32-bit). */
static struct pt_regs *dtrace_user_regs(void)
{
	struct task_struct *t = current;
	struct pt_regs *regs;

	if (!t->mm || (t->flags & (PF_KTHREAD | PF_EXITING)))
		return NULL;
	regs = task_pt_regs(t);
	if (!regs || !user_mode(regs))
		return NULL;
#ifdef CONFIG_X86_64
	if (!user_64bit_mode(regs))
		return NULL;
#endif
	return regs;
}

/*
 * Up to max user pcs into pcs (NULL: count only, up to DTRACE_USTACK_MAX):
 * the current pc, then each frame's return address. Returns how many.
 */
u32 dtrace_getustack(u64 *pcs, u32 max)
{
	struct pt_regs *regs = dtrace_user_regs();
	u64 fp, frame[2];
	u32 n = 0;

	if (!pcs)
		max = DTRACE_USTACK_MAX;
	if (!regs || !max)
		return 0;
	if (pcs)
		pcs[n] = instruction_pointer(regs);
	n++;
	fp = frame_pointer(regs);
	while (n < max) {
		if (!fp || (fp & 7) ||
		    copy_from_user_nofault(frame, (const void __user *)(uintptr_t)fp,
					   sizeof(frame)))
			break;
		if (!frame[1])
			break;
		if (pcs)
			pcs[n] = frame[1];
		n++;
		if (frame[0] <= fp)	/* frames live higher up the stack */
			break;
		fp = frame[0];
	}
	return n;
}
NOKPROBE_SYMBOL(dtrace_getustack);

/*
 * The kernel stack where the probe fired, into pcs[0 .. max) (pcs may be
 * NULL to count): dtrace.ko's own frames and aframes more skipped, or
 * (dtrace_probe_at()) every frame above the one the provider named.
 * Returns the number of frames found (all of them, not only max).
 */
u32 dtrace_getpcstack(u64 *pcs, u32 max, int aframes)
{
	unsigned long trace[DTRACE_KSTACK_MAX];
	unsigned int n, i = 0, j, out = 0;
	unsigned long start;

	n = stack_trace_save(trace, ARRAY_SIZE(trace), 0);
	/* Our own frames: everything up to the last one inside dtrace.ko. */
	while (i < n && !within_module(trace[i], THIS_MODULE))
		i++;
	while (i < n && within_module(trace[i], THIS_MODULE))
		i++;
	/*
	 * dtrace_probe_at(): from the return site the provider named, or
	 * past the probed function's own entry (a return address in its
	 * first bytes: the ftrace call's), if found.
	 */
	start = dtrace_stack_start();
	for (j = i; start && j < n; j++)
		if (trace[j] - start < DTRACE_ENTRY_SPAN)
			break;
	if (start && j < n)
		i = trace[j] == start ? j : j + 1;
	else if (aframes > 0)
		i += min_t(unsigned int, aframes, n - i);
	if (!start && aframes > 0 && i < n && dtrace_tp_iterator(trace[i]))
		i++;
	for (; i < n; i++, out++)
		if (pcs && out < max)
			pcs[out] = trace[i];
	return out;
}
NOKPROBE_SYMBOL(dtrace_getpcstack);
