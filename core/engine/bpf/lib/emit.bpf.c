/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * emit.bpf.c - samples to dt_ring (firings and faults), waking the
 * consumer only past the ring's mark (dt_ring_flags), drop counting in
 * dt_cpustate, exit(), and the perf-event prologue helper.
 */
#include "dt_lib_impl.h"

/*
 * The wakeup mark: a sample written while the ring holds more than a
 * quarter of its size wakes the consumer (it sleeps in epoll on dt_ring,
 * ring.hpp); below the mark none does. So a burst never waits for
 * switchrate to be drained, and a steady trickle costs no wakeup per event
 * (the kernel's default wakes the consumer whenever it has caught up:
 * about once per event). Past the mark every sample asks again: cheap
 * while a wakeup is pending, and while the consumer lags it slows the
 * producer a little (the irq_work of each wakeup), which is what keeps a
 * consumer on another CPU in step (waking only on crossing the mark lost
 * 972 of 10^6 printf firings in 1 run of 3 there; every sample, none).
 */
DT_INLINE u64 dt_ring_flags(void)
{
	u64 held = bpf_ringbuf_query(&dt_ring, BPF_RB_AVAIL_DATA);

	return held > bpf_ringbuf_query(&dt_ring, BPF_RB_RING_SIZE) / 4 ? BPF_RB_FORCE_WAKEUP
									 : BPF_RB_NO_WAKEUP;
}

DT_INLINE void dt_count_drop(u64 which)
{
	struct dt_bpf_cpustate *c = dt_cpu();

	if (!c)
		return;
	if (which == 0)
		c->drops++;
	else
		c->dyn_drops++;
}

DT_API u64 dt_emit_firing(struct dt_bpf_mem *m, u64 size)
{
	struct dt_bpf_sample *s = (struct dt_bpf_sample *)m->buf;

	s->cpu = bpf_get_smp_processor_id();
	s->kind = DT_BPF_SAMPLE_FIRING;
	if (size > DT_BPF_BUF_SIZE + 16 - sizeof(*s))
		size = DT_BPF_BUF_SIZE + 16 - sizeof(*s);
	size = DT_CLAMP(size + sizeof(*s), DT_BPF_BUF_SIZE + 16);
	if (bpf_ringbuf_output(&dt_ring, m->buf, size, dt_ring_flags())) {
		dt_count_drop(0);
		return 1;
	}
	return 0;
}

DT_API u64 dt_emit_fault(struct dt_bpf_mem *m)
{
	struct {
		struct dt_bpf_sample s;
		struct dt_bpf_fault_sample f;
	} rec;

	rec.s.cpu = bpf_get_smp_processor_id();
	rec.s.kind = DT_BPF_SAMPLE_FAULT;
	rec.f.epid = (uint32_t)m->epid;
	rec.f.action = m->fault.action;
	rec.f.offset = m->fault.offset;
	rec.f.code = m->fault.code;
	rec.f.illval = m->fault.illval;
	m->fault.code = 0;
	m->fault.action = 0;
	m->fault.offset = 0;
	m->fault.illval = 0;
	if (bpf_ringbuf_output(&dt_ring, &rec, sizeof(rec), dt_ring_flags())) {
		dt_count_drop(0);
		return 1;
	}
	return 0;
}

/*
 * exit(): ACTIVE (or INACTIVE: exit() in BEGIN) becomes DRAINING; the CPU of
 * the call that made the change is kept. The BEGIN epilogue must move
 * INACTIVE to ACTIVE with a compare-and-swap so that this sticks.
 */
DT_API u64 dt_exit(struct dt_bpf_mem *m)
{
	struct dt_bpf_status *st = dt_map0(&dt_status);
	u64 old;

	(void)m;
	if (!st)
		return 0;
	old = __sync_val_compare_and_swap(&st->activity, DT_BPF_ACTIVE, DT_BPF_DRAINING);
	if (old == DT_BPF_INACTIVE)
		old = __sync_val_compare_and_swap(&st->activity, DT_BPF_INACTIVE,
						  DT_BPF_DRAINING) == DT_BPF_INACTIVE
			      ? DT_BPF_ACTIVE
			      : DT_BPF_DRAINING;
	if (old == DT_BPF_ACTIVE)
		st->exit_cpu = bpf_get_smp_processor_id();
	return 0;
}

/*
 * chill(): illumos dtrace_action_chill(). A CPU may spend at most
 * DT_CHILL_MAX chilling in each DT_CHILL_INTERVAL (its dtrace_chill_max
 * and dtrace_chill_interval); a request that would pass that, or whose sum
 * overflows, faults ILLOP and does not spin. The spin polls
 * bpf_ktime_get_ns() in bpf_loop (each call at most 2^23 steps, the
 * helper's limit; a step costs tens of ns, so a few calls cover
 * DT_CHILL_MAX).
 */
#define DT_CHILL_MAX 500000000ULL	/* 500 ms */
#define DT_CHILL_INTERVAL 1000000000ULL /* 1 s */
#define DT_CHILL_LOOPS 16
#define DT_CHILL_STEPS (1U << 23)

struct dt_chill_span {
	u64 start;
	u64 ns;
	u64 done;
};

static long dt_chill_step(uint32_t i, void *ctx)
{
	struct dt_chill_span *sp = ctx;

	(void)i;
	if (bpf_ktime_get_ns() - sp->start < sp->ns)
		return 0;
	sp->done = 1;
	return 1;
}

DT_API u64 dt_chill(struct dt_bpf_mem *m, u64 ns)
{
	struct dt_bpf_cpustate *c = dt_cpu();
	struct dt_chill_span sp = {.start = bpf_ktime_get_ns(), .ns = ns, .done = 0};
	int k;

	if (!c)
		return 0;
	if (sp.start - c->chillmark > DT_CHILL_INTERVAL) {
		c->chillmark = sp.start;
		c->chilled = 0;
	}
	if (c->chilled + ns > DT_CHILL_MAX || c->chilled + ns < c->chilled)
		return dt_fault(m, DTRACEFLT_ILLOP, 0);
	for (k = 0; k < DT_CHILL_LOOPS && !sp.done; k++)
		bpf_loop(DT_CHILL_STEPS, dt_chill_step, &sp, 0);
	/* timestamp stays put within a firing, except across chill(). */
	m->timestamp = bpf_ktime_get_ns();
	c->chilled += ns;
	return 0;
}

/*
 * profile-N / tick-N: arg0 the kernel pc (0 in user mode), arg1 the user
 * pc (0 in kernel mode), as illumos profile. ctx is struct
 * bpf_perf_event_data, which starts with the pt_regs.
 */
DT_API u64 dt_perf_args(void *ctx, struct dt_bpf_mem *m)
{
	u64 pc, user;

#if defined(DT_TARGET_ARCH_arm64)
	/* user_pt_regs: regs[31], sp, pc, pstate; EL0 when pstate & 0xf == 0. */
	pc = *(u64 *)((uint8_t *)ctx + 32 * 8);
	user = (*(u64 *)((uint8_t *)ctx + 33 * 8) & 0xf) == 0;
#else
	/* x86_64 pt_regs: ip at 16 * 8, cs at 17 * 8; user mode when (cs & 3) == 3. */
	pc = *(u64 *)((uint8_t *)ctx + 16 * 8);
	user = (*(u64 *)((uint8_t *)ctx + 17 * 8) & 3) == 3;
#endif
	m->args[0] = user ? 0 : pc;
	m->args[1] = user ? pc : 0;
	return 0;
}
