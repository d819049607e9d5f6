// SPDX-License-Identifier: GPL-2.0
/*
 * buffer.c - per-CPU principal and aggregation buffers (illumos
 * dtrace_buffer_*), and the consumer's switch.
 *
 *   GO        dtrace_buffers_alloc(): for each possible CPU a
 *             dtrace_state_cpu with two principal buffers, two
 *             aggregation buffers, scratch, clause-local storage
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
 */
#include <linux/cpu.h>
#include <linux/log2.h>
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
	sc->keybuf = kzalloc_node(maxkey + 8, GFP_KERNEL, node);
	if (!sc->scratch || !sc->keybuf)
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
	sc->rand_state[0] = get_random_u64() | 1;
	sc->rand_state[1] = get_random_u64();
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

		desc->dtbd_size = b->offset;
		desc->dtbd_drops = b->drops;
		desc->dtbd_errors = b->errors;
		if (b->offset && copy_to_user(dst, b->data, b->offset))
			err = -EFAULT;
		b->offset = 0;
		b->drops = 0;
		b->errors = 0;
	}
	return err;
}
