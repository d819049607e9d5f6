// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - DTrace Probe Context Functions: dtrace_probe() and the ECB
 * loop (illumos dtrace_probe()).
 *
 *   dtrace_probe(id, args)
 *     interrupts off; this CPU's nesting guard (a nested call: count, return)
 *     rcu_read_lock; probe = xa_load(id); for each ECB on probe:
 *       state live for this probe? (ACTIVE; BEGIN in WARMUP; END/ERROR
 *       while DRAINING) and not past its deadman (jiffies)
 *       predicate ─ false: next ECB, nothing reserved or written
 *       reserve clause->size bytes in this CPU's active principal buffer
 *         (no room: a drop on this CPU; 0 bytes: the clause records
 *         nothing); its header: EPID, timestamp (if the consumer asks)
 *       actions: each record's DIF, its value written into the firing,
 *         or into the aggregation key / folded into this CPU's
 *         aggregation buffer
 *       fault ─► the firing is discarded, counted, and dtrace:::ERROR
 *         fires for this state with (0, epid, action, DIF offset, fault,
 *         illegal value) — unless the fault is in an ERROR clause itself
 *         (then a double error is counted)
 *       speculate(id) (spec.c) ─► at the end the firing is moved to
 *         this CPU's buffer of that speculation (not active: dropped);
 *         commit(id) ─► the firing is committed, then the speculation's
 *         data on this CPU copied after it; discard(id); an id above
 *         nspec is an illegal operation (a fault)
 *       success ─► the firing is committed (the buffer offset moves);
 *         exit() moves the state to DRAINING
 *
 * The fast path (illumos dtrace_probe()'s): nothing a clause does not use
 * is set up. The clock is read at most once per probe firing and only when
 * a record's header (DTRACE_PROGF_TIMESTAMP) or D's timestamp needs it;
 * the DIF VM's context is per CPU and state, built at GO, and a firing
 * sets only its env, args, scratch and (once) strtok, and only for a
 * clause that runs DIF. The deadman check, the ECB body, the record header and the
 * buffer reserve are inline: dif_emulate() is the first call an ECB makes.
 *
 * Everything below is probe context: no sleeping, no allocation, no
 * blocking lock, no fault. The only lock, a state's dynamic-variable
 * arch spinlock, is never taken twice on one CPU: the nesting guard
 * stops re-entry and the lock is dropped before ERROR fires.
 */
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "dif_emulate.h"
#include "dtrace_impl.h"

static DEFINE_PER_CPU(struct dtrace_cpu, dtrace_cpu_info);

u64 dtrace_nested_drops(void)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(&dtrace_cpu_info, cpu)->nested);
	return n;
}

/* Which states' ECBs run for this probe, by activity. */
static bool dtrace_ecb_live(int activity, dtrace_id_t id)
{
	switch (activity) {
	case DTRACE_ACTIVITY_ACTIVE:
		return true;
	case DTRACE_ACTIVITY_WARMUP:
		return id == dtrace_probeid_begin || id == dtrace_probeid_error;
	case DTRACE_ACTIVITY_DRAINING:
		return id == dtrace_probeid_end || id == dtrace_probeid_error;
	default:
		return false;
	}
}

/* Past the deadline: the state is dead, unless destructive (-w). */
static noinline bool dtrace_state_deadman_kill(struct dtrace_state *state)
{
	int cur;

	if (state->opts.dtph_flags & DTRACE_PROGF_DESTRUCTIVE)
		return false;
	do {
		cur = READ_ONCE(state->activity);
		if (cur == DTRACE_ACTIVITY_KILLED || cur == DTRACE_ACTIVITY_STOPPED)
			return true;
	} while (cmpxchg(&state->activity, cur, DTRACE_ACTIVITY_KILLED) != cur);
	return true;
}
NOKPROBE_SYMBOL(dtrace_state_deadman_kill);

/*
 * Probe context (illumos dtrace_probe()): true if the state is dead, in
 * which case it is now KILLED and nothing more is recorded for it.
 */
static nokprobe_inline bool dtrace_state_deadman_check(struct dtrace_state *state)
{
	if (likely(time_before_eq(jiffies, READ_ONCE(state->deadline))))
		return false;
	return dtrace_state_deadman_kill(state);
}

/* A fault of one ECB firing: where, what (dtrace:::ERROR's arguments). */
struct dtrace_fault {
	u16 code;
	u64 illval;
	s64 off;
};

static nokprobe_inline bool dtrace_run(dif_ctx_t *ctx, struct dtrace_fault *f,
				       const struct dtrace_difo *dp)
{
	ctx->difo = &dp->d;
	if (likely(dif_emulate(ctx) == 0))
		return true;
	f->code = ctx->fault;
	f->illval = ctx->illval;
	f->off = ctx->fault_pc;
	return false;
}

static bool dtrace_fault_at(struct dtrace_fault *f, u16 code, u64 illval)
{
	f->code = code;
	f->illval = illval;
	f->off = -1;
	return false;
}

#define DTRACE_CHILL_MAX	(500 * NSEC_PER_MSEC)	/* illumos dtrace_chill_max */
#define DTRACE_CHILL_INTERVAL	NSEC_PER_SEC		/* dtrace_chill_interval */

/*
 * chill(ns), illumos dtrace_action_chill(): spin ns in probe context, at
 * most DTRACE_CHILL_MAX in each DTRACE_CHILL_INTERVAL on this CPU. A
 * request past that (or whose sum overflows) does not spin: false, an
 * illegal operation. D's timestamp is read again afterwards (the record's
 * header keeps the firing's).
 */
static noinline bool dtrace_chill(struct dtrace_cpu *c, struct dtrace_mstate *ms, u64 ns)
{
	u64 now = ktime_get_mono_fast_ns();

	if (now - c->chillmark > DTRACE_CHILL_INTERVAL) {
		c->chillmark = now;
		c->chilled = 0;
	}
	if (c->chilled + ns > DTRACE_CHILL_MAX || c->chilled + ns < c->chilled)
		return false;
	while (ktime_get_mono_fast_ns() - now < ns)
		cpu_relax();
	ms->timestamp = 0;
	c->chilled += ns;
	return true;
}
NOKPROBE_SYMBOL(dtrace_chill);

/* Write value v of action a into dst (a->size bytes, already zeroed). */
static bool dtrace_store_value(dif_ctx_t *ctx, struct dtrace_fault *f,
			       const struct dtrace_act *a, u64 v, u8 *dst,
			       const struct dtrace_probe *probe)
{
	uint16_t flt = 0;
	size_t len;
	u64 pid;

	switch (a->vkind) {
	case DTRACE_PV_INT:
		memcpy(dst, &v, a->size);	/* little-endian: the low bytes */
		return true;
	case DTRACE_PV_STRING:
		/* A NULL string faults at 0 (illumos dtrace_store_by_ref()). */
		dtrace_env_ops.copystr(ctx->env, v, (char *)dst, a->size, DIF_SPACE_KERNEL,
				       &flt);
		if (flt)
			return dtrace_fault_at(f, flt, v);
		/* NUL padding (ioctl.h): copystr may leave bytes after the NUL. */
		len = strnlen((const char *)dst, a->size);
		memset(dst + len, 0, a->size - len);
		return true;
	case DTRACE_PV_BYTES:
		if (!dtrace_read(v, dst, a->size))
			return dtrace_fault_at(f, DTRACEFLT_BADADDR, v);
		return true;
	case DTRACE_PV_STACK:
		dtrace_getpcstack((u64 *)dst, a->nframes, probe->aframes);
		return true;
	case DTRACE_PV_USTACK:
		/* The pid, then the user pcs; the rest stays zero (jstack strings). */
		pid = current->mm ? task_tgid_nr(current) : 0;
		memcpy(dst, &pid, 8);
		dtrace_getustack((u64 *)(dst + 8), a->nframes);
		return true;
	case DTRACE_PV_PIDADDR:
		pid = task_tgid_nr(current);
		memcpy(dst, &pid, 8);
		memcpy(dst + 8, &v, 8);
		return true;
	}
	return dtrace_fault_at(f, DTRACEFLT_ILLOP, a->vkind);
}
NOKPROBE_SYMBOL(dtrace_store_value);

static void dtrace_probe_error(struct dtrace_state *state, u32 epid, u32 which,
			       const struct dtrace_fault *f)
{
	struct dtrace_probe *ep;
	u64 args[DTRACE_MAXARGS] = { 0, epid, which, (u64)f->off, f->code, f->illval };

	if (!dtrace_probeid_error)
		return;
	ep = xa_load(&dtrace_probes, dtrace_probeid_error);
	if (ep)
		dtrace_probe_fire(ep, args, state);
}

/*
 * A firing's record: its header (EPID; the firing's timestamp if the
 * consumer asked for it, DTRACE_PROGF_TIMESTAMP, else 0) and zeroes for
 * the actions to fill. rec and size are 8-aligned (enable.c, buffer.c):
 * a few stores, no memset call.
 */
static nokprobe_inline void dtrace_record_start(const struct dtrace_state *state, u8 *rec,
						u32 size, u32 epid, struct dtrace_mstate *ms)
{
	dtrace_rechdr_t *hdr = (dtrace_rechdr_t *)rec;
	u64 ts = 0;
	u32 off;

	if (state->opts.dtph_flags & DTRACE_PROGF_TIMESTAMP)
		ts = dtrace_mstate_timestamp(ms);

	BUILD_BUG_ON(sizeof(dtrace_rechdr_t) > 2 * sizeof(u64));
	for (off = sizeof(u64); off < size; off += sizeof(u64))
		*(u64 *)(rec + off) = 0;
	hdr->dtrh_epid = epid;
	hdr->dtrh_timestamp_hi = (u32)(ts >> 32);
	hdr->dtrh_timestamp_lo = (u32)ts;
}

/*
 * One ECB, the illumos order: the predicate first (nothing reserved,
 * nothing written if it is false), then the firing's room in the buffer,
 * then the actions. The VM context is touched only by a clause that runs
 * DIF, the clock only by one that records (or reads timestamp).
 */
static nokprobe_inline void dtrace_ecb_fire(const struct dtrace_ecb *ecb,
					    struct dtrace_mstate *ms, struct dtrace_cpu *dc)
{
	struct dtrace_state *state = ecb->state;
	const struct dtrace_clause *cl = ecb->clause;
	struct dtrace_state_cpu *sc = state->cpus ? state->cpus[ms->cpu] : NULL;
	const struct dtrace_aggdesc *keyagg = NULL;
	bool locked = false, exits = false, committed = false;
	struct dtrace_specbuf *specbuf = NULL;
	struct dtrace_buffer *buf;
	struct dtrace_fault f;
	dif_ctx_t *ctx;
	u32 i, which = 0;
	u64 tok;
	u8 *rec;

	if (unlikely(!sc))
		return;
	buf = &sc->buf[sc->active];
	ctx = &sc->ctx;
	ms->ecb = ecb;

	if (cl->vm) {
		/*
		 * Clause-locals and strtok()'s position (illumos' mstate
		 * dtms_strtok, its copy in sc->strtok_buf) live for one probe
		 * firing, across its clauses.
		 */
		if (sc->firing != dc->firing) {
			sc->firing = dc->firing;
			ctx->strtok = 0;
			if (state->nlocals)
				memset(sc->locals, 0, state->nlocals * sizeof(u64));
			if (state->locals_size)
				memset(state->varmem + state->locals_off +
					       (u64)ms->cpu * state->locals_size,
				       0, state->locals_size);
		}
		/* Scratch lives for the ECB. */
		ctx->env = ms;
		ctx->args = ms->args;
		ctx->scratch_used = 0;
		ctx->thread_key = task_pid_nr(current);
		if (cl->dstate && state->have_dstate) {
			arch_spin_lock(&state->dlock);
			locked = true;
		}
	}

	if (cl->pred) {
		if (!dtrace_run(ctx, &f, cl->pred))
			goto fault;
		if (ctx->rval == 0)
			goto out;
	}

	/* A clause that only aggregates or assigns records nothing (rec NULL). */
	rec = NULL;
	if (cl->size) {
		rec = dtrace_buffer_reserve(state, buf, cl->size,
					    ms->probe->id == dtrace_probeid_end);
		if (!rec)
			goto out;
		dtrace_record_start(state, rec, cl->size, ecb->epid, ms);
	}

	for (i = 0; i < cl->nacts; i++) {
		const struct dtrace_act *a = &cl->acts[i];
		u64 v = 0;

		which = i + 1;
		if (a->difo) {
			if (!dtrace_run(ctx, &f, a->difo))
				goto fault;
			v = ctx->rval;
		}

		switch (a->role) {
		case DTRACE_PROLE_ARG:
			if ((a->flags & DTRACE_PACT_FIRST) && a->kind == DTRACEACT_EXIT)
				exits = true;
			if ((a->flags & DTRACE_PACT_FIRST) && a->kind == DTRACEACT_CHILL &&
			    !dtrace_chill(dc, ms, v)) {
				dtrace_fault_at(&f, DTRACEFLT_ILLOP, 0);
				goto fault;
			}
			if ((a->flags & DTRACE_PACT_FIRST) && DTRACEACT_ISSPECULATIVE(a->kind)) {
				if (v > state->nspec) {
					dtrace_fault_at(&f, DTRACEFLT_ILLOP, v);
					goto fault;
				}
				if (a->kind == DTRACEACT_SPECULATE) {
					specbuf = v ? dtrace_speculation_buffer(state, ms->cpu, v) : NULL;
					if (!specbuf)
						goto out;	/* dropped, silently */
				} else if (a->kind == DTRACEACT_COMMIT) {
					if (!specbuf && !committed) {
						buf->offset += cl->size;
						committed = true;
					}
					dtrace_speculation_commit(state, ms->cpu, v);
				} else {
					dtrace_speculation_discard(state, ms->cpu, v);
				}
			}
			if (a->size &&
			    !dtrace_store_value(ctx, &f, a, v, rec + a->offset, ms->probe))
				goto fault;
			break;
		case DTRACE_PROLE_KEY:
			if (keyagg != a->agg || (a->flags & DTRACE_PACT_FIRST)) {
				keyagg = a->agg;
				memset(sc->keybuf, 0, a->agg->keysize);
			}
			if (a->size && !dtrace_store_value(ctx, &f, a, v, sc->keybuf + a->offset,
							   ms->probe))
				goto fault;
			break;
		case DTRACE_PROLE_VAL: {
			s64 incr = 1;

			if (keyagg != a->agg) {		/* no keys: @ = count() */
				keyagg = a->agg;
				memset(sc->keybuf, 0, a->agg->keysize);
			}
			if (i + 1 < cl->nacts && cl->acts[i + 1].role == DTRACE_PROLE_INCR) {
				const struct dtrace_act *inc = &cl->acts[++i];

				which = i + 1;
				if (inc->difo && !dtrace_run(ctx, &f, inc->difo))
					goto fault;
				incr = inc->difo ? (s64)ctx->rval : 1;
			}
			dtrace_aggregate(&sc->agg[sc->agg_active], a->agg, sc->keybuf, (s64)v,
					 incr);
			keyagg = NULL;
			break;
		}
		default:	/* INCR without VAL: refused by enable.c */
			break;
		}
	}

	/* Committed: the firing stays in the buffer (or goes to the speculation's). */
	if (specbuf && rec)
		dtrace_speculation_store(specbuf, rec, cl->size);
	else if (!committed)
		buf->offset += cl->size;
	if (exits && cmpxchg(&state->activity, DTRACE_ACTIVITY_ACTIVE,
			     DTRACE_ACTIVITY_DRAINING) == DTRACE_ACTIVITY_ACTIVE) {
		WRITE_ONCE(state->exitcpu, ms->cpu);
		WRITE_ONCE(state->exiting, true);
	} else if (exits && cmpxchg(&state->activity, DTRACE_ACTIVITY_WARMUP,
				    DTRACE_ACTIVITY_DRAINING) == DTRACE_ACTIVITY_WARMUP) {
		WRITE_ONCE(state->exitcpu, ms->cpu);
		WRITE_ONCE(state->exiting, true);
	}
	goto out;

fault:
	if (locked) {
		dif_dstate_clean(&state->dstate);
		arch_spin_unlock(&state->dlock);
	}
	if (ms->probe->id == dtrace_probeid_error) {
		atomic64_inc(&state->dblerrors);
		return;
	}
	buf->errors++;
	atomic64_inc(&state->errors);
	/*
	 * ERROR is a firing of its own: its ECBs reuse this CPU's context
	 * (nothing below reads it again) and start with no strtok()
	 * position. This firing's later clauses go on with its position,
	 * and with the clause-locals as ERROR left them, not reset again.
	 */
	tok = ctx->strtok;
	dtrace_probe_error(state, ecb->epid, which, &f);
	ctx->strtok = tok;
	sc->firing = dc->firing;
	return;
out:
	if (locked) {
		dif_dstate_clean(&state->dstate);
		arch_spin_unlock(&state->dlock);
	}
}

void dtrace_probe_fire(struct dtrace_probe *probe, const u64 *args, struct dtrace_state *only)
{
	struct dtrace_cpu *dc = this_cpu_ptr(&dtrace_cpu_info);
	bool is_error = probe->id == dtrace_probeid_error;
	struct dtrace_mstate ms;
	struct dtrace_ecb *ecb;

	ms.probe = probe;
	ms.args = args;
	ms.cpu = smp_processor_id();
	ms.timestamp = 0;
	dc->firing++;
	for (ecb = rcu_dereference(probe->ecbs); ecb; ecb = rcu_dereference(ecb->next)) {
		if (only && ecb->state != only)
			continue;
		if (!only && is_error)
			continue;	/* ERROR fires per state, from a fault */
		/* Acquire: pairs with GO's release, so its buffers are visible. */
		if (!dtrace_ecb_live(smp_load_acquire(&ecb->state->activity), probe->id))
			continue;
		if (dtrace_state_deadman_check(ecb->state))
			continue;
		dtrace_ecb_fire(ecb, &ms, dc);
	}
}
NOKPROBE_SYMBOL(dtrace_probe_fire);

/* Probe context: the firing's dtrace_probe_at() start frame, or 0. */
unsigned long dtrace_stack_start(void)
{
	return this_cpu_read(dtrace_cpu_info.stack_start);
}
NOKPROBE_SYMBOL(dtrace_stack_start);

static void dtrace_probe_start(dtrace_id_t id, unsigned long start, const u64 *args)
{
	struct dtrace_probe *probe;
	struct dtrace_cpu *dc;
	unsigned long flags;

	local_irq_save(flags);
	dc = this_cpu_ptr(&dtrace_cpu_info);
	if (dc->nest) {
		dc->nested++;
		local_irq_restore(flags);
		return;
	}
	dc->nest = 1;
	dc->stack_start = start;
	rcu_read_lock();
	probe = xa_load(&dtrace_probes, id);
	if (probe && rcu_access_pointer(probe->ecbs))
		dtrace_probe_fire(probe, args, NULL);
	rcu_read_unlock();
	dc->stack_start = 0;
	dc->nest = 0;
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(dtrace_probe_start);

/**
 * dtrace_probe() - fire a probe (contract 7 in dtrace/provider.h).
 * @id: the probe
 * @arg0: D's arg0
 * @arg1: arg1
 * @arg2: arg2
 * @arg3: arg3
 * @arg4: arg4
 * @arg5: arg5
 *
 * Any context. Interrupts are disabled for the duration; a call nested
 * inside another on this CPU is counted and dropped.
 */
void dtrace_probe(dtrace_id_t id, u64 arg0, u64 arg1, u64 arg2, u64 arg3, u64 arg4, u64 arg5)
{
	u64 args[DTRACE_MAXARGS] = { arg0, arg1, arg2, arg3, arg4, arg5 };

	dtrace_probe_start(id, 0, args);
}
EXPORT_SYMBOL_GPL(dtrace_probe);
NOKPROBE_SYMBOL(dtrace_probe);

/**
 * dtrace_probe_at() - dtrace_probe() whose kernel stack begins at start
 * (dtrace/provider.h).
 * @id: the probe
 * @start: the pc of the stack's first frame (the probed function's caller)
 * @arg0: D's arg0
 * @arg1: arg1
 * @arg2: arg2
 * @arg3: arg3
 * @arg4: arg4
 * @arg5: arg5
 */
void dtrace_probe_at(dtrace_id_t id, unsigned long start, u64 arg0, u64 arg1, u64 arg2,
		     u64 arg3, u64 arg4, u64 arg5)
{
	u64 args[DTRACE_MAXARGS] = { arg0, arg1, arg2, arg3, arg4, arg5 };

	dtrace_probe_start(id, start, args);
}
EXPORT_SYMBOL_GPL(dtrace_probe_at);
NOKPROBE_SYMBOL(dtrace_probe_at);

/*
 * BEGIN and END: fired from the GO and STOP ioctls, on the calling CPU,
 * for one state only, in probe context like any other firing.
 */
int dtrace_probe_state(struct dtrace_state *state, dtrace_id_t id)
{
	u64 args[DTRACE_MAXARGS] = { 0 };
	struct dtrace_probe *probe;
	struct dtrace_cpu *dc;
	unsigned long flags;
	int cpu;

	local_irq_save(flags);
	cpu = smp_processor_id();
	dc = this_cpu_ptr(&dtrace_cpu_info);
	if (!dc->nest) {
		dc->nest = 1;
		rcu_read_lock();
		probe = xa_load(&dtrace_probes, id);
		if (probe)
			dtrace_probe_fire(probe, args, state);
		rcu_read_unlock();
		dc->nest = 0;
	}
	local_irq_restore(flags);
	return cpu;
}
