// SPDX-License-Identifier: GPL-2.0
/*
 * state.c - one consumer's state (illumos dtrace_state_t): its life from
 * open to close, GO and STOP, its variables and its counters.
 *
 *   INACTIVE ─ENABLE*─► INACTIVE ─GO─► WARMUP (BEGIN) ─► ACTIVE
 *      ACTIVE ─exit() in probe context, or STOP─► DRAINING (END) ─► STOPPED
 *   close, from any activity: ECBs detached (providers disable their
 *   probes) ─► synchronize_rcu() ─► buffers, variables, programs freed ─►
 *   provider modules unpinned
 *
 * Variables are laid out at GO from every DIF object's variable table:
 * scalar globals (globals[id - UBASE]), by-ref globals and each CPU's
 * by-ref clause-locals in one varmem region (the VM's writable variable
 * memory), and the dynamic-variable arena (self->, associative arrays).
 *
 * The deadman (illumos dtrace_state_deadman()): from GO on, a timer runs
 * every deadman_interval_ms (1 s) and moves the state's deadline to
 * deadman_timeout_ms (10 s) from now, but only while its consumer keeps
 * calling STATUS (the last call less than deadman_user_ms, 30 s, ago).
 * Probe context compares jiffies with the deadline (illumos compares its
 * clock with dts_alive; jiffies costs one load): past it, the state moves to
 * KILLED (unless destructive actions are allowed, -w) and none of its
 * ECBs runs again; the consumer sees KILLED in STATUS and aborts. So a
 * consumer that stops consuming, or a machine too busy in probe context
 * to run the timer, no longer pays for tracing. The three times are
 * module parameters (/sys/module/dtrace/parameters/deadman_*_ms), which
 * the VM tests shorten.
 */
#define pr_fmt(fmt) "dtrace: " fmt

#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/version.h>
#include <linux/vmalloc.h>

#include "dtrace_impl.h"

LIST_HEAD(dtrace_states);
unsigned int dtrace_nopen;

unsigned long dtrace_deadman_interval_ms = 1000;	/* illumos dtrace_deadman_interval */
unsigned long dtrace_deadman_timeout_ms = 10000;	/* dtrace_deadman_timeout */
unsigned long dtrace_deadman_user_ms = 30000;		/* dtrace_deadman_user */
module_param_named(deadman_interval_ms, dtrace_deadman_interval_ms, ulong, 0644);
MODULE_PARM_DESC(deadman_interval_ms, "How often the deadman timer runs (ms, default 1000)");
module_param_named(deadman_timeout_ms, dtrace_deadman_timeout_ms, ulong, 0644);
MODULE_PARM_DESC(deadman_timeout_ms,
		 "A consumer is killed when its deadman is this far behind (ms, default 10000)");
module_param_named(deadman_user_ms, dtrace_deadman_user_ms, ulong, 0644);
MODULE_PARM_DESC(deadman_user_ms,
		 "The deadman stops once the consumer has not asked for status this long (ms, default 30000)");

#define DTRACE_MAX_VARBUF	(64u << 10)	/* one by-ref variable */
#define DTRACE_MAX_VARMEM	(64u << 20)	/* all of them, all CPUs */

struct dtrace_state *dtrace_state_create(void)
{
	struct dtrace_state *state = kzalloc(sizeof(*state), GFP_KERNEL);

	if (!state)
		return NULL;
	mutex_init(&state->lock);
	INIT_LIST_HEAD(&state->progs);
	INIT_LIST_HEAD(&state->pins);
	INIT_LIST_HEAD(&state->list);
	state->activity = DTRACE_ACTIVITY_INACTIVE;
	state->dlock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	atomic64_set(&state->errors, 0);
	atomic64_set(&state->dblerrors, 0);
	return state;
}

static void dtrace_vars_free(struct dtrace_state *state)
{
	kvfree(state->globals);
	kvfree(state->grefs);
	kvfree(state->lref_off);
	kvfree(state->lref_size);
	vfree(state->varmem);
	vfree(state->dynmem);
	state->globals = NULL;
	state->grefs = NULL;
	state->lref_off = NULL;
	state->lref_size = NULL;
	state->varmem = NULL;
	state->dynmem = NULL;
	state->have_dstate = false;
}

static bool dtrace_byref(const dtrace_diftype_t *t)
{
	return t->dtdt_kind == DIF_TYPE_STRING || (t->dtdt_flags & DIF_TF_BYREF);
}

/* Visit every user variable of every DIF object of the state. */
#define for_each_state_var(state, prog, i, j, v)				\
	list_for_each_entry(prog, &(state)->progs, list)			\
		for (i = 0; i < (prog)->ndifos; i++)				\
			for (j = 0; j < (prog)->difos[i].d.varlen &&		\
			     ((v) = &(prog)->difos[i].d.vartab[j]); j++)

static int dtrace_vars_setup(struct dtrace_state *state)
{
	u64 strsize = state->opts.dtph_strsize, chunk = 0, gmem = 0, lmem = 0, total;
	struct dtrace_prog *prog;
	const dtrace_difv_t *v;
	u32 i, j, ndx;

	/* Pass 1: how many of each, and the dynamic-variable chunk size. */
	for_each_state_var(state, prog, i, j, v) {
		bool byref = dtrace_byref(&v->dtdv_type);
		u64 size = !byref ? 8 : v->dtdv_type.dtdt_kind == DIF_TYPE_STRING ?
			   strsize : max_t(u64, v->dtdv_type.dtdt_size, 1);

		if (size > DTRACE_MAX_VARBUF)
			return -E2BIG;
		if (v->dtdv_kind == DIFV_KIND_ARRAY || v->dtdv_scope == DIFV_SCOPE_THREAD) {
			u64 nkeys = 1 + (v->dtdv_scope == DIFV_SCOPE_THREAD);
			u64 keybytes = 0;

			if (v->dtdv_kind == DIFV_KIND_ARRAY) {
				/* Key types are not in the blob: the worst case. */
				nkeys += DIF_DTR_NREGS;
				keybytes += 2 * strsize;
			}
			chunk = max_t(u64, chunk, DIF_DSTATE_CHUNKSIZE(nkeys, keybytes, size));
			continue;
		}
		if (v->dtdv_id < DIF_VAR_OTHER_UBASE)
			continue;
		ndx = v->dtdv_id - DIF_VAR_OTHER_UBASE + 1;
		if (v->dtdv_scope == DIFV_SCOPE_GLOBAL)
			state->nglobals = max(state->nglobals, ndx);
		else if (v->dtdv_scope == DIFV_SCOPE_LOCAL)
			state->nlocals = max(state->nlocals, ndx);
	}
	if (state->opts.dtph_dynchunksize)
		chunk = state->opts.dtph_dynchunksize;

	if (state->nglobals) {
		state->globals = kvcalloc(state->nglobals, sizeof(u64), GFP_KERNEL);
		state->grefs = kvcalloc(state->nglobals, sizeof(dif_varbuf_t), GFP_KERNEL);
		if (!state->globals || !state->grefs)
			goto nomem;
	}
	if (state->nlocals) {
		state->lref_off = kvmalloc_array(state->nlocals, sizeof(u32), GFP_KERNEL);
		state->lref_size = kvcalloc(state->nlocals, sizeof(u64), GFP_KERNEL);
		if (!state->lref_off || !state->lref_size)
			goto nomem;
		memset(state->lref_off, 0xff, state->nlocals * sizeof(u32));
	}

	/* Pass 2: by-ref scalars get a buffer (globals first, then locals). */
	for_each_state_var(state, prog, i, j, v) {
		u64 size;

		if (v->dtdv_kind != DIFV_KIND_SCALAR || v->dtdv_scope == DIFV_SCOPE_THREAD ||
		    v->dtdv_id < DIF_VAR_OTHER_UBASE || !dtrace_byref(&v->dtdv_type))
			continue;
		size = v->dtdv_type.dtdt_kind == DIF_TYPE_STRING ? strsize :
		       max_t(u64, v->dtdv_type.dtdt_size, 1);
		ndx = v->dtdv_id - DIF_VAR_OTHER_UBASE;
		if (v->dtdv_scope == DIFV_SCOPE_GLOBAL && !state->grefs[ndx].size) {
			state->grefs[ndx].size = size;
			state->grefs[ndx].data = (u8 *)(uintptr_t)gmem;	/* offset for now */
			gmem += DIF_VARBUF_HDR + round_up(size, 8);
		} else if (v->dtdv_scope == DIFV_SCOPE_LOCAL && state->lref_off[ndx] == ~0u) {
			state->lref_off[ndx] = (u32)lmem;
			state->lref_size[ndx] = size;
			lmem += DIF_VARBUF_HDR + round_up(size, 8);
		}
		if (gmem + lmem > DTRACE_MAX_VARMEM)
			return -E2BIG;
	}
	total = gmem + lmem * nr_cpu_ids;
	if (total > DTRACE_MAX_VARMEM)
		return -E2BIG;
	if (total) {
		state->varmem = vzalloc(total);
		if (!state->varmem)
			goto nomem;
		state->varmem_size = total;
		for (i = 0; i < state->nglobals; i++)
			if (state->grefs[i].size)
				state->grefs[i].data = state->varmem +
						       (uintptr_t)state->grefs[i].data;
	}
	state->locals_off = gmem;
	state->locals_size = lmem;

	if (chunk) {
		u64 size = max_t(u64, state->opts.dtph_dynvarsize, 4096);

		state->dynmem = vzalloc(size);
		if (!state->dynmem)
			goto nomem;
		if (dif_dstate_init(&state->dstate, state->dynmem, size, chunk))
			return -E2BIG;
		state->have_dstate = true;
	}
	return 0;
nomem:
	return -ENOMEM;
}

/* The consumer is alive now: probe context kills the state past the timeout. */
static void dtrace_deadman_advance(struct dtrace_state *state)
{
	unsigned long timeout = min_t(unsigned long, READ_ONCE(dtrace_deadman_timeout_ms),
				      U32_MAX);

	WRITE_ONCE(state->deadline, jiffies + msecs_to_jiffies(timeout));
}

/* Timer context (never probe context): the consumer is still there. */
static enum hrtimer_restart dtrace_state_deadman(struct hrtimer *t)
{
	struct dtrace_state *state = container_of(t, struct dtrace_state, deadman);
	u64 now = ktime_get_mono_fast_ns();
	u64 interval = dtrace_ms_to_ns(max(READ_ONCE(dtrace_deadman_interval_ms), 1ul));

	if (now - (u64)atomic64_read(&state->laststatus) <
	    dtrace_ms_to_ns(READ_ONCE(dtrace_deadman_user_ms)))
		dtrace_deadman_advance(state);
	hrtimer_forward_now(t, ns_to_ktime(interval));
	return HRTIMER_RESTART;
}

static void dtrace_deadman_start(struct dtrace_state *state)
{
	u64 interval = dtrace_ms_to_ns(max(READ_ONCE(dtrace_deadman_interval_ms), 1ul));
	u64 now = ktime_get_mono_fast_ns();

	dtrace_deadman_advance(state);
	atomic64_set(&state->laststatus, now);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&state->deadman, dtrace_state_deadman, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&state->deadman, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	state->deadman.function = dtrace_state_deadman;
#endif
	hrtimer_start(&state->deadman, ns_to_ktime(interval), HRTIMER_MODE_REL);
	state->deadman_armed = true;
}

/* bufpolicy, and for fill the room END's firings keep (illumos dts_reserve). */
static void dtrace_buffer_policy(struct dtrace_state *state)
{
	u32 i;

	state->bufpolicy = state->opts.dtph_flags & (DTRACE_PROGF_FILL | DTRACE_PROGF_RING);
	state->end_reserve = 0;
	for (i = 0; i < state->necbs; i++)
		if (state->ecbs[i]->probe->id == dtrace_probeid_end)
			state->end_reserve += state->ecbs[i]->clause->size;
}

/*
 * After BEGIN: providers whose probes fire on their own clock arm them now
 * (dtps_start), so that tick-1s first fires a second after BEGIN.
 */
static void dtrace_state_start_probes(struct dtrace_state *state)
{
	u32 i;

	mutex_lock(&dtrace_lock);
	for (i = 0; i < state->necbs; i++) {
		struct dtrace_probe *p = state->ecbs[i]->probe;
		struct dtrace_provider *prov = p->prov;

		if (prov->pops->dtps_start && !prov->defunct && p->necbs)
			prov->pops->dtps_start(prov->arg, p->id, p->arg);
	}
	mutex_unlock(&dtrace_lock);
}

int dtrace_state_go(struct dtrace_state *state, u32 *cpu)
{
	int err;

	lockdep_assert_held(&state->lock);
	if (state->activity != DTRACE_ACTIVITY_INACTIVE)
		return -EBUSY;
	if (!state->opts_set)
		return -EINVAL;
	/* Option cpu (illumos DTRACEOPT_CPU): a CPU that can trace. */
	if ((state->opts.dtph_flags & DTRACE_PROGF_CPU) &&
	    (state->opts.dtph_cpu >= nr_cpu_ids || !cpu_online(state->opts.dtph_cpu)))
		return -EINVAL;
	dtrace_buffer_policy(state);
	err = dtrace_vars_setup(state);
	if (!err)
		err = dtrace_buffers_alloc(state);
	if (!err) {
		err = dtrace_spec_alloc(state);
		if (err)
			dtrace_buffers_free(state);
	}
	if (err) {
		dtrace_vars_free(state);
		state->nglobals = state->nlocals = 0;
		return err;
	}
	dtrace_deadman_start(state);
	dtrace_spec_start(state);
	/* Publish the buffers before any probe context can see the state live. */
	smp_store_release(&state->activity, DTRACE_ACTIVITY_WARMUP);
	*cpu = dtrace_probe_state(state, dtrace_probeid_begin);
	cmpxchg(&state->activity, DTRACE_ACTIVITY_WARMUP, DTRACE_ACTIVITY_ACTIVE);
	dtrace_state_start_probes(state);
	return 0;
}

int dtrace_state_stop(struct dtrace_state *state, u32 *cpu)
{
	int act = READ_ONCE(state->activity);

	lockdep_assert_held(&state->lock);
	if (act == DTRACE_ACTIVITY_INACTIVE)
		return -EINVAL;
	if (act == DTRACE_ACTIVITY_STOPPED)
		return -EALREADY;
	if (act == DTRACE_ACTIVITY_KILLED)
		return -EINVAL;		/* as illumos: only ACTIVE or DRAINING stop */
	WRITE_ONCE(state->activity, DTRACE_ACTIVITY_DRAINING);
	*cpu = dtrace_probe_state(state, dtrace_probeid_end);
	WRITE_ONCE(state->activity, DTRACE_ACTIVITY_STOPPED);
	/* No CPU is still in an ECB of this state after this. */
	synchronize_rcu();
	return 0;
}

void dtrace_state_status(struct dtrace_state *state, dtrace_status_t *st)
{
	memset(st, 0, sizeof(*st));
	atomic64_set(&state->laststatus, ktime_get_mono_fast_ns());
	if (state->have_dstate) {
		st->dtst_dyndrops = READ_ONCE(state->dstate.drops);
		st->dtst_dyndrops_dirty = READ_ONCE(state->dstate.dirty_drops);
	}
	st->dtst_errors = atomic64_read(&state->errors);
	st->dtst_dblerrors = atomic64_read(&state->dblerrors);
	dtrace_spec_status(state, st);
	st->dtst_nested = dtrace_nested_drops();
	st->dtst_activity = READ_ONCE(state->activity);
	st->dtst_exiting = READ_ONCE(state->exiting);
	st->dtst_exitcpu = READ_ONCE(state->exitcpu);
	st->dtst_filled = dtrace_buffers_filled(state);
}

/* The consumer closed /dev/dtrace (or died): tear everything down. */
void dtrace_state_destroy(struct dtrace_state *state)
{
	struct dtrace_prog *prog, *tmp;
	u32 i;

	if (state->deadman_armed)
		hrtimer_cancel(&state->deadman);
	dtrace_spec_stop(state);
	mutex_lock(&dtrace_lock);
	WRITE_ONCE(state->activity, DTRACE_ACTIVITY_STOPPED);
	for (i = 0; i < state->necbs; i++)
		dtrace_ecb_detach(state->ecbs[i]);
	list_del_init(&state->list);
	mutex_unlock(&dtrace_lock);

	/* Wait out every dtrace_probe() that may still see an ECB of ours. */
	synchronize_rcu();

	for (i = 0; i < state->necbs; i++)
		kfree(state->ecbs[i]);
	kvfree(state->ecbs);
	dtrace_spec_free(state);
	dtrace_buffers_free(state);
	dtrace_vars_free(state);
	list_for_each_entry_safe(prog, tmp, &state->progs, list) {
		list_del(&prog->list);
		dtrace_prog_free(prog);
	}
	dtrace_pins_close(state);
	mutex_destroy(&state->lock);
	kfree(state);
}
