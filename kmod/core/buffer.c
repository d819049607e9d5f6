// SPDX-License-Identifier: GPL-2.0
/*
 * buffer.c - per-CPU principal and aggregation buffers (illumos
 * dtrace_buffer_*), and the consumer's switch.
 *
 *   GO        dtrace_buffers_alloc(): for each possible CPU traced (all,
 *             or the one D's option cpu names: DTRACE_PROGF_CPU) a
 *             dtrace_state_cpu with two principal buffers, two
 *             aggregation buffers, scratch, clause-local storage and
 *             the DIF VM context's fixed part (dtrace_state_cpu_ctx())
 *   probe     writes buf[active] / agg[agg_active] of its own CPU only,
 *             interrupts off (probe.c)
 *   BUFSNAP   smp_call_function_single(cpu, switch): on that CPU, with
 *   AGGSNAP   interrupts off, active ^= 1, so no firing there is cut in
 *             two; then, in the ioctl, the now-inactive buffer is copied
 *             to the consumer and emptied. Never from probe context.
 *   close     after STOP (or teardown) and synchronize_rcu(): freed
 *
 * An offline CPU runs no probe; its buffers are switched in place, with
 * CPU hotplug held off (cpus_read_lock) for the whole switch.
 *
 * Buffer policies (D's bufpolicy, illumos DTRACEBUF_*), on the principal
 * buffers; the consumer reads fill and ring buffers only once stopped:
 *   switch  a firing that does not fit is dropped; BUFSNAP empties
 *   fill    the first firing that does not fit (less the space END's
 *           clauses need, end_reserve) marks the CPU's buffer filled: it
 *           is dropped, and so is every later firing but END's. STATUS
 *           reports filled buffers (dtst_filled); the consumer then stops,
 *           and END still finds its room.
 *   ring    a firing that does not fit at the end goes to the start:
 *           the firings from [offset, wrap_end) are the oldest left and
 *           each new firing overwrites whole old ones (woff moves past
 *           them, by their EPID's size), so BUFSNAP copies out
 *           [woff, wrap_end) then [0, offset): the newest firings, oldest
 *           first.
 */
#include <linux/cpu.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "dtrace_impl.h"

static void dtrace_state_cpu_free(struct dtrace_state_cpu *sc)
{
	int i;

	if (!sc)
		return;
	for (i = 0; i < 2; i++) {
		vfree(sc->buf[i].data);
		vfree(sc->agg[i].data);
		kvfree(sc->agg[i].buckets);
	}
	vfree(sc->scratch);
	kvfree(sc->strtok_buf);
	kfree(sc->locals);
	kfree(sc->lrefs);
	kfree(sc->keybuf);
	kfree(sc);
}

/* Buckets: about one per 256 bytes of entries, a power of two. */
static u32 dtrace_agg_nbuckets(u64 aggsize)
{
	u64 n = clamp_t(u64, aggsize / 256, 16, 1u << 20);

	return (u32)rounddown_pow_of_two(n);
}

/* The VM context's fixed part (probe.c sets the rest per firing). */
static void dtrace_state_cpu_ctx(struct dtrace_state *state, struct dtrace_state_cpu *sc)
{
	dif_ctx_t *ctx = &sc->ctx;

	ctx->ops = &dtrace_env_ops;
	ctx->scratch = sc->scratch;
	ctx->scratch_size = state->opts.dtph_scratchsize;
	ctx->strtok_buf = sc->strtok_buf;
	ctx->globals = state->globals;
	ctx->nglobals = state->nglobals;
	ctx->locals = sc->locals;
	ctx->nlocals = state->nlocals;
	ctx->strsize = state->opts.dtph_strsize;
	ctx->kernel_priv = true;	/* only root opens /dev/dtrace */
	ctx->nargs = DTRACE_PROBE_NARGS;	/* ms->args: arg0-5 (dif.c getarg) */
	ctx->grefs = state->grefs;
	ctx->lrefs = sc->lrefs;
	ctx->varmem = state->varmem;
	ctx->varmem_size = state->varmem_size;
	ctx->dstate = state->have_dstate ? &state->dstate : NULL;
	ctx->rand_state[0] = get_random_u64() | 1;
	ctx->rand_state[1] = get_random_u64();
	/* mutex_*(): the owner word, the task pointer above its flag bits */
#ifdef CONFIG_PREEMPT_RT
	ctx->mutex_owner = offsetof(struct mutex, rtmutex.owner);
	ctx->mutex_owner_mask = ~1ULL;		/* RT_MUTEX_HAS_WAITERS */
#else
	ctx->mutex_owner = offsetof(struct mutex, owner);
	ctx->mutex_owner_mask = ~7ULL;		/* kernel/locking/mutex.c MUTEX_FLAGS */
#endif
}

static struct dtrace_state_cpu *dtrace_state_cpu_alloc(struct dtrace_state *state, int cpu,
						       u32 maxkey)
{
	const dtrace_prog_hdr_t *o = &state->opts;
	int node = cpu_to_node(cpu);
	struct dtrace_state_cpu *sc;
	u32 i;

	sc = kzalloc_node(sizeof(*sc), GFP_KERNEL, node);
	if (!sc)
		return NULL;
	for (i = 0; i < 2; i++) {
		sc->buf[i].data = vmalloc_node(o->dtph_bufsize, node);
		if (!sc->buf[i].data)
			goto fail;
		sc->buf[i].size = o->dtph_bufsize;
		if (o->dtph_aggsize) {
			sc->agg[i].data = vmalloc_node(o->dtph_aggsize, node);
			sc->agg[i].nbuckets = dtrace_agg_nbuckets(o->dtph_aggsize);
			sc->agg[i].buckets = kvcalloc(sc->agg[i].nbuckets, sizeof(u32),
						      GFP_KERNEL);
			if (!sc->agg[i].data || !sc->agg[i].buckets)
				goto fail;
			sc->agg[i].size = o->dtph_aggsize;
		}
	}
	sc->scratch = vmalloc_node(o->dtph_scratchsize, node);
	sc->strtok_buf = kvzalloc_node(o->dtph_strsize, GFP_KERNEL, node);
	sc->keybuf = kzalloc_node(maxkey + 8, GFP_KERNEL, node);
	if (!sc->scratch || !sc->strtok_buf || !sc->keybuf)
		goto fail;
	if (state->nlocals) {
		sc->locals = kcalloc_node(state->nlocals, sizeof(u64), GFP_KERNEL, node);
		sc->lrefs = kcalloc_node(state->nlocals, sizeof(dif_varbuf_t), GFP_KERNEL, node);
		if (!sc->locals || !sc->lrefs)
			goto fail;
		for (i = 0; i < state->nlocals; i++) {
			if (state->lref_off[i] == ~0u)
				continue;
			sc->lrefs[i].data = state->varmem + state->locals_off +
					    (u64)cpu * state->locals_size + state->lref_off[i];
			sc->lrefs[i].size = state->lref_size[i];
		}
	}
	dtrace_state_cpu_ctx(state, sc);
	return sc;
fail:
	dtrace_state_cpu_free(sc);
	return NULL;
}

int dtrace_buffers_alloc(struct dtrace_state *state)
{
	struct dtrace_prog *prog;
	u32 maxkey = 0, i;
	int cpu;

	list_for_each_entry(prog, &state->progs, list)
		for (i = 0; i < prog->naggs; i++)
			maxkey = max(maxkey, prog->aggs[i].keysize);

	state->cpus = kcalloc(nr_cpu_ids, sizeof(*state->cpus), GFP_KERNEL);
	if (!state->cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (!dtrace_state_traces_cpu(state, cpu))
			continue;	/* no buffers: its probes run no ECB */
		state->cpus[cpu] = dtrace_state_cpu_alloc(state, cpu, maxkey);
		if (!state->cpus[cpu]) {
			dtrace_buffers_free(state);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Only once no probe context can reach the state (synchronize_rcu()). */
void dtrace_buffers_free(struct dtrace_state *state)
{
	int cpu;

	if (!state->cpus)
		return;
	for_each_possible_cpu(cpu)
		dtrace_state_cpu_free(state->cpus[cpu]);
	kfree(state->cpus);
	state->cpus = NULL;
}

/* The size of the firing at off, by its EPID (ring); 0 if not sane. */
static notrace u64 dtrace_buffer_recsize(struct dtrace_state *state,
					 const struct dtrace_buffer *buf, u64 off)
{
	u32 epid;

	if (off + sizeof(dtrace_rechdr_t) > buf->size)
		return 0;
	memcpy(&epid, buf->data + off, sizeof(epid));
	if (epid == 0 || epid > state->necbs)
		return 0;
	return state->ecbs[epid - 1]->clause->size;
}

notrace u8 *dtrace_buffer_reserve_slow(struct dtrace_state *state, struct dtrace_buffer *buf,
				       u64 size, bool is_end)
{
	u64 limit = buf->size, n;

	if (size > buf->size)
		goto drop;
	switch (state->bufpolicy) {
	case DTRACE_PROGF_FILL:
		if (!is_end) {
			if (buf->filled)
				goto drop;
			limit = buf->size > state->end_reserve ? buf->size - state->end_reserve : 0;
		}
		if (size > limit || buf->offset > limit - size) {
			if (!is_end)
				WRITE_ONCE(buf->filled, true);
			goto drop;
		}
		break;
	case DTRACE_PROGF_RING:
		if (buf->offset > buf->size - size) {
			/* To the start: what was written so far is the oldest. */
			buf->wrap_end = buf->offset;
			buf->woff = 0;
			buf->offset = 0;
			buf->wrapped = buf->wrap_end != 0;
		}
		/* Overwrite whole firings only: the oldest start past ours. */
		while (buf->wrapped && buf->woff < buf->offset + size) {
			n = dtrace_buffer_recsize(state, buf, buf->woff);
			if (!n || buf->woff + n >= buf->wrap_end) {
				buf->wrapped = false;	/* nothing old left */
				break;
			}
			buf->woff += n;
		}
		break;
	default:
		if (buf->offset > buf->size - size)
			goto drop;
		break;
	}
	return buf->data + buf->offset;
drop:
	buf->drops++;
	return NULL;
}
NOKPROBE_SYMBOL(dtrace_buffer_reserve_slow);

u32 dtrace_buffers_filled(struct dtrace_state *state)
{
	u32 n = 0;
	int cpu;

	if (!state->cpus)
		return 0;
	for_each_possible_cpu(cpu) {
		struct dtrace_state_cpu *sc = state->cpus[cpu];

		if (sc && (READ_ONCE(sc->buf[0].filled) || READ_ONCE(sc->buf[1].filled)))
			n++;
	}
	return n;
}

struct dtrace_switch {
	struct dtrace_state_cpu *sc;
	bool agg;
};

/* On the buffer's CPU with interrupts off (a cross-call), never in probe context. */
static void dtrace_buffer_switch(void *arg)
{
	struct dtrace_switch *sw = arg;

	if (sw->agg)
		sw->sc->agg_active ^= 1;
	else
		sw->sc->active ^= 1;
	sw->sc->switched = ktime_get_mono_fast_ns();
}

int dtrace_buffer_snap(struct dtrace_state *state, dtrace_bufdesc_t *desc, bool agg)
{
	struct dtrace_switch sw = { .agg = agg };
	struct dtrace_state_cpu *sc;
	u32 cpu = desc->dtbd_cpu;
	u64 need = agg ? state->opts.dtph_aggsize : state->opts.dtph_bufsize;
	unsigned long flags;
	void __user *dst = (void __user *)(uintptr_t)desc->dtbd_data;
	int err = 0;

	lockdep_assert_held(&state->lock);
	if (desc->dtbd_pad || cpu >= nr_cpu_ids || !state->cpus || !state->cpus[cpu])
		return -EINVAL;
	if (desc->dtbd_size < need)
		return -ENOSPC;
	sc = state->cpus[cpu];
	sw.sc = sc;

	cpus_read_lock();
	if (cpu_online(cpu)) {
		err = smp_call_function_single(cpu, dtrace_buffer_switch, &sw, 1);
	} else {
		local_irq_save(flags);
		dtrace_buffer_switch(&sw);
		local_irq_restore(flags);
	}
	cpus_read_unlock();
	if (err)
		return err;

	desc->dtbd_timestamp = sc->switched;
	if (agg) {
		struct dtrace_aggbuf *ab = &sc->agg[!sc->agg_active];

		desc->dtbd_size = ab->used;
		desc->dtbd_drops = ab->drops;
		desc->dtbd_errors = 0;
		if (ab->used && copy_to_user(dst, ab->data, ab->used))
			err = -EFAULT;
		dtrace_aggbuf_reset(ab);
	} else {
		struct dtrace_buffer *b = &sc->buf[!sc->active];
		u64 tail = b->wrapped ? b->wrap_end - b->woff : 0;

		/* A wrapped ring: its oldest firings first (see above). */
		desc->dtbd_size = tail + b->offset;
		desc->dtbd_drops = b->drops;
		desc->dtbd_errors = b->errors;
		if (tail && copy_to_user(dst, b->data + b->woff, tail))
			err = -EFAULT;
		if (!err && b->offset && copy_to_user(dst + tail, b->data, b->offset))
			err = -EFAULT;
		b->offset = 0;
		b->drops = 0;
		b->errors = 0;
		b->wrapped = false;
		b->woff = b->wrap_end = 0;
		WRITE_ONCE(b->filled, false);
	}
	return err;
}
