// SPDX-License-Identifier: GPL-2.0
/*
 * spec.c - DTrace Speculation Functions (illumos dtrace_speculation*).
 *
 * A state has nspec speculations; each has one buffer of specsize bytes
 * per CPU (allocated at GO, only when some ECB speculates) and a state
 * word changed with cmpxchg from any CPU:
 *
 *   INACTIVE ─speculation()─► ACTIVE ─speculate() on a CPU─► ACTIVEONE
 *      ACTIVEONE ─speculate() on a second CPU─► ACTIVEMANY
 *   commit()  on the only CPU with data (or none has any): COMMITTING,
 *             this CPU's data copied, then INACTIVE at once
 *             otherwise: COMMITTINGMANY, this CPU's data copied, the
 *             other CPUs' by the cleaner
 *   discard() on the only CPU with data: INACTIVE at once; otherwise
 *             DISCARDING, the other CPUs' data dropped by the cleaner
 *   cleaner   every cleanrate ns, from a workqueue (process context): if
 *             some speculation is COMMITTINGMANY or DISCARDING, a
 *             cross-call to every CPU commits or drops that CPU's buffer
 *             there with interrupts off (probe context cannot run on it
 *             meanwhile), then those speculations become INACTIVE.
 *
 * Probe context (speculation(), speculate, commit, discard) runs with
 * interrupts off and only touches its own CPU's buffers: a speculative
 * buffer is written only on its CPU, by probe context or by the cleaner's
 * cross-call there. A commit copies into this CPU's principal buffer
 * (reserved as the buffer policy says; no room: a principal drop) and
 * restamps each firing with the commit time. speculation() failing counts "busy" when some speculation is
 * still being committed or discarded, else "unavailable"; firings that
 * do not fit a speculative buffer are counted per buffer and reported
 * (dtst_specdrops) once that speculation is committed, as illumos does.
 */
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "dtrace_impl.h"

#define DTRACE_CLEANRATE_DEFAULT	9900990ull		/* 101 Hz */
#define DTRACE_CLEANRATE_MIN		200000ull		/* 5000 Hz */
#define DTRACE_CLEANRATE_MAX		(60ull * NSEC_PER_SEC)	/* once a minute */

/* ==== Probe context ==================================================== */

/* speculation(): an INACTIVE speculation made ACTIVE, its id; 0 if none. */
u64 dtrace_speculation(struct dtrace_state *state)
{
	atomic64_t *stat = &state->spec_unavail;
	u32 i = 0, cur;

	while (i < state->nspec) {
		struct dtrace_spec *spec = &state->specs[i];

		cur = READ_ONCE(spec->state);
		if (cur != DTRACESPEC_INACTIVE) {
			if (cur == DTRACESPEC_COMMITTINGMANY || cur == DTRACESPEC_COMMITTING ||
			    cur == DTRACESPEC_DISCARDING)
				stat = &state->spec_busy;
			i++;
			continue;
		}
		if (cmpxchg(&spec->state, cur, DTRACESPEC_ACTIVE) == cur)
			return i + 1;
		/* Lost a race for this one: look at it again. */
	}
	atomic64_inc(stat);
	return 0;
}
NOKPROBE_SYMBOL(dtrace_speculation);

/*
 * speculate(which) on cpu: this CPU's buffer of the speculation, the
 * speculation marked active here; NULL (the firing is dropped) if it is
 * not active. which is 1 .. nspec (the caller checked).
 */
struct dtrace_specbuf *dtrace_speculation_buffer(struct dtrace_state *state, int cpu, u64 which)
{
	struct dtrace_spec *spec = &state->specs[which - 1];
	struct dtrace_specbuf *buf = &spec->bufs[cpu];
	u32 cur, new;

	if (!buf->data)
		return NULL;
	do {
		cur = READ_ONCE(spec->state);
		switch (cur) {
		case DTRACESPEC_ACTIVEONE:
			/* Data here: we are the one CPU. None: a second CPU. */
			if (buf->offset)
				return buf;
			new = DTRACESPEC_ACTIVEMANY;
			break;
		case DTRACESPEC_ACTIVEMANY:
			return buf;
		case DTRACESPEC_ACTIVE:
			new = DTRACESPEC_ACTIVEONE;
			break;
		default:	/* INACTIVE, COMMITTING*, DISCARDING */
			return NULL;
		}
	} while (cmpxchg(&spec->state, cur, new) != cur);
	return buf;
}
NOKPROBE_SYMBOL(dtrace_speculation_buffer);

void dtrace_speculation_store(struct dtrace_specbuf *buf, const u8 *rec, u32 size)
{
	if (size > buf->size || buf->offset > buf->size - size) {
		buf->drops++;
		return;
	}
	memcpy(buf->data + buf->offset, rec, size);
	buf->offset += size;
}
NOKPROBE_SYMBOL(dtrace_speculation_store);

/* Copy this CPU's data of a speculation into its principal buffer. */
static void dtrace_spec_copy(struct dtrace_state *state, int cpu, struct dtrace_specbuf *src)
{
	struct dtrace_state_cpu *sc = state->cpus[cpu];
	struct dtrace_buffer *dest = &sc->buf[sc->active];
	bool stamp = state->opts.dtph_flags & DTRACE_PROGF_TIMESTAMP;
	u64 now = stamp ? ktime_get_mono_fast_ns() : 0, off = 0;
	u8 *to;

	if (!src->offset)
		return;
	/* As one firing of the buffer policy's (no room: a principal drop). */
	to = dtrace_buffer_reserve(state, dest, src->offset, false);
	if (!to)
		return;
	memcpy(to, src->data, src->offset);
	/* Each firing now bears the commit's time (illumos does the same). */
	while (stamp && off + sizeof(dtrace_rechdr_t) <= src->offset) {
		dtrace_rechdr_t *h = (dtrace_rechdr_t *)(to + off);
		u32 epid = h->dtrh_epid;

		if (epid == DTRACE_EPIDNONE || epid > state->necbs)
			break;	/* cannot happen: whole firings of our ECBs */
		h->dtrh_timestamp_hi = (u32)(now >> 32);
		h->dtrh_timestamp_lo = (u32)now;
		off += state->ecbs[epid - 1]->clause->size;
	}
	dest->offset += src->offset;
}
NOKPROBE_SYMBOL(dtrace_spec_copy);

/* commit(which) on cpu; which is 1 .. nspec or 0 (nothing). */
void dtrace_speculation_commit(struct dtrace_state *state, int cpu, u64 which)
{
	struct dtrace_spec *spec;
	struct dtrace_specbuf *src;
	u32 cur, new = DTRACESPEC_COMMITTINGMANY;

	if (which == 0)
		return;
	spec = &state->specs[which - 1];
	src = &spec->bufs[cpu];
	do {
		cur = READ_ONCE(spec->state);
		if (cur == DTRACESPEC_COMMITTINGMANY)
			break;
		switch (cur) {
		case DTRACESPEC_ACTIVE:
			new = DTRACESPEC_COMMITTING;
			break;
		case DTRACESPEC_ACTIVEONE:
			/* Data here: ours is the one CPU; else the cleaner's work. */
			new = src->offset ? DTRACESPEC_COMMITTING : DTRACESPEC_COMMITTINGMANY;
			break;
		case DTRACESPEC_ACTIVEMANY:
			new = DTRACESPEC_COMMITTINGMANY;
			break;
		default:	/* INACTIVE, DISCARDING, COMMITTING (racing commit) */
			return;
		}
	} while (cmpxchg(&spec->state, cur, new) != cur);

	if (src->data) {
		dtrace_spec_copy(state, cpu, src);
		src->offset = 0;
		src->committed_drops += src->drops;
		src->drops = 0;
	}
	if (cur == DTRACESPEC_ACTIVE ||
	    (cur == DTRACESPEC_ACTIVEONE && new == DTRACESPEC_COMMITTING))
		cmpxchg(&spec->state, DTRACESPEC_COMMITTING, DTRACESPEC_INACTIVE);
}
NOKPROBE_SYMBOL(dtrace_speculation_commit);

/* discard(which) on cpu; which is 1 .. nspec or 0 (nothing). */
void dtrace_speculation_discard(struct dtrace_state *state, int cpu, u64 which)
{
	struct dtrace_spec *spec;
	struct dtrace_specbuf *buf;
	u32 cur, new;

	if (which == 0)
		return;
	spec = &state->specs[which - 1];
	buf = &spec->bufs[cpu];
	do {
		cur = READ_ONCE(spec->state);
		switch (cur) {
		case DTRACESPEC_ACTIVE:
		case DTRACESPEC_ACTIVEMANY:
			new = DTRACESPEC_DISCARDING;
			break;
		case DTRACESPEC_ACTIVEONE:
			new = buf->offset ? DTRACESPEC_INACTIVE : DTRACESPEC_DISCARDING;
			break;
		default:	/* INACTIVE, COMMITTING*, DISCARDING */
			return;
		}
	} while (cmpxchg(&spec->state, cur, new) != cur);
	buf->offset = 0;
	buf->drops = 0;
}
NOKPROBE_SYMBOL(dtrace_speculation_discard);

/* The VM's speculation() (dif_env_ops_t): env is the firing's mstate. */
uint64_t dtrace_env_speculation(void *env)
{
	const struct dtrace_mstate *ms = env;

	return dtrace_speculation(ms->ecb->state);
}
NOKPROBE_SYMBOL(dtrace_env_speculation);

/* ==== The cleaner ====================================================== */

/*
 * On cpu with interrupts off: a cross-call, so that no probe context runs
 * there meanwhile. An offline CPU (online false) fires no probe, but the
 * consumer may be switching its principal buffer: its part of a
 * committed speculation is dropped there rather than copied.
 */
static void dtrace_spec_clean_cpu(struct dtrace_state *state, int cpu, bool online)
{
	u32 i;

	for (i = 0; i < state->nspec; i++) {
		struct dtrace_spec *spec = &state->specs[i];
		struct dtrace_specbuf *src = &spec->bufs[cpu];
		u32 cur = READ_ONCE(spec->state);

		if (!src->data || !READ_ONCE(spec->cleaning))
			continue;
		if (cur == DTRACESPEC_COMMITTINGMANY && online) {
			dtrace_speculation_commit(state, cpu, i + 1);
		} else {
			src->offset = 0;
			src->drops = 0;
		}
	}
}

static void dtrace_spec_clean_here(void *arg)
{
	dtrace_spec_clean_cpu(arg, smp_processor_id(), true);
}

static void dtrace_spec_clean(struct work_struct *work)
{
	struct dtrace_state *state = container_of(to_delayed_work(work), struct dtrace_state,
						  spec_clean);
	unsigned long flags;
	u32 i, work_to_do = 0;
	int cpu;

	for (i = 0; i < state->nspec; i++) {
		struct dtrace_spec *spec = &state->specs[i];
		u32 cur = READ_ONCE(spec->state);

		if (cur != DTRACESPEC_DISCARDING && cur != DTRACESPEC_COMMITTINGMANY)
			continue;
		/* Neither state changes but by us from here on. */
		WRITE_ONCE(spec->cleaning, true);
		work_to_do++;
	}
	if (work_to_do) {
		cpus_read_lock();
		on_each_cpu(dtrace_spec_clean_here, state, 1);
		for_each_possible_cpu(cpu) {
			if (cpu_online(cpu))
				continue;
			local_irq_save(flags);
			dtrace_spec_clean_cpu(state, cpu, false);
			local_irq_restore(flags);
		}
		cpus_read_unlock();
		/* Every CPU has committed or dropped its part: free again. */
		for (i = 0; i < state->nspec; i++) {
			struct dtrace_spec *spec = &state->specs[i];

			if (!spec->cleaning)
				continue;
			WRITE_ONCE(spec->cleaning, false);
			smp_store_release(&spec->state, DTRACESPEC_INACTIVE);
		}
	}
	schedule_delayed_work(&state->spec_clean, state->spec_cleanticks);
}

/* ==== GO, STATUS, close ================================================ */

/* At GO, process context: the speculations and, if needed, their buffers. */
int dtrace_spec_alloc(struct dtrace_state *state)
{
	u32 nspec = state->opts.dtph_nspec, i;
	u64 specsize = state->opts.dtph_specsize;
	u64 rate = state->opts.dtph_cleanrate ?: DTRACE_CLEANRATE_DEFAULT;
	int cpu;

	INIT_DELAYED_WORK(&state->spec_clean, dtrace_spec_clean);
	rate = clamp(rate, DTRACE_CLEANRATE_MIN, DTRACE_CLEANRATE_MAX);
	state->spec_cleanticks = max_t(unsigned long, nsecs_to_jiffies(rate), 1);
	if (!nspec)
		return 0;
	state->specs = kcalloc(nspec, sizeof(*state->specs), GFP_KERNEL);
	if (!state->specs)
		return -ENOMEM;
	state->nspec = nspec;
	for (i = 0; i < nspec; i++) {
		struct dtrace_spec *spec = &state->specs[i];

		spec->bufs = kcalloc(nr_cpu_ids, sizeof(*spec->bufs), GFP_KERNEL);
		if (!spec->bufs)
			goto nomem;
		if (!state->speculates || !specsize)
			continue;
		for_each_possible_cpu(cpu) {
			if (!dtrace_state_traces_cpu(state, cpu))
				continue;
			spec->bufs[cpu].data = vmalloc_node(specsize, cpu_to_node(cpu));
			if (!spec->bufs[cpu].data)
				goto nomem;
			spec->bufs[cpu].size = specsize;
		}
	}
	return 0;
nomem:
	dtrace_spec_free(state);
	return -ENOMEM;
}

/*
 * After GO's allocations: the cleaner runs until dtrace_spec_stop(), if
 * anything can need it (only commit() and discard() leave a speculation
 * COMMITTINGMANY or DISCARDING).
 */
void dtrace_spec_start(struct dtrace_state *state)
{
	if (!state->nspec || !state->spec_ends)
		return;
	state->spec_running = true;
	schedule_delayed_work(&state->spec_clean, state->spec_cleanticks);
}

/* Process context, before the principal buffers are freed. */
void dtrace_spec_stop(struct dtrace_state *state)
{
	if (!state->spec_running)
		return;
	cancel_delayed_work_sync(&state->spec_clean);
	state->spec_running = false;
}

/* Once no probe context can reach the state and the cleaner is stopped. */
void dtrace_spec_free(struct dtrace_state *state)
{
	u32 i;
	int cpu;

	if (!state->specs)
		return;
	for (i = 0; i < state->nspec; i++) {
		struct dtrace_spec *spec = &state->specs[i];

		if (!spec->bufs)
			continue;
		for_each_possible_cpu(cpu)
			vfree(spec->bufs[cpu].data);
		kfree(spec->bufs);
	}
	kfree(state->specs);
	state->specs = NULL;
	state->nspec = 0;
}

void dtrace_spec_status(struct dtrace_state *state, dtrace_status_t *st)
{
	u32 i;
	int cpu;

	st->dtst_specdrops_busy = atomic64_read(&state->spec_busy);
	st->dtst_specdrops_unavail = atomic64_read(&state->spec_unavail);
	for (i = 0; i < state->nspec; i++)
		for_each_possible_cpu(cpu)
			st->dtst_specdrops += READ_ONCE(state->specs[i].bufs[cpu].committed_drops);
}
