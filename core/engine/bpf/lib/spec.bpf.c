/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * spec.bpf.c - speculations (dt_bpf_abi.h, "speculations"): the dt_spec
 * map, speculation() (allocation by compare-and-swap), speculate()'s
 * check, the speculative firing's sample and commit()/discard().
 *
 * As illumos: speculation() returns 0 and counts a failed speculation when
 * every id is active; speculate(0), or of an id that is not active, drops
 * the firing silently; an id above nspec faults ILLOP (illval: the id);
 * commit()/discard() of an id that is not active do nothing.
 */
#include "dt_lib_impl.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, uint32_t);
	__type(value, struct dt_bpf_spec);
} dt_spec SEC(".maps");

DT_INLINE struct dt_bpf_spec *dt_spec_entry(u64 id)
{
	uint32_t k = (uint32_t)id;

	return bpf_map_lookup_elem(&dt_spec, &k);
}

DT_INLINE void dt_spec_drop(void)
{
	struct dt_bpf_cpustate *c = dt_cpu();

	if (c)
		c->spec_drops++;
}

/*
 * speculation(): a free id (1..nspec), made active; 0 if none is free.
 * The id found goes through a result slot (dt_res), so that the verifier
 * walks the caller on with one state, not one per iteration.
 */
DT_API u64 dt_subr_speculation(struct dt_bpf_mem *m, u64 strsize)
{
	struct dt_bpf_spec *hdr = dt_spec_entry(0), *s;
	u64 i, w, n;

	(void)strsize;
	if (!hdr)
		return 0;
	n = hdr->state;
	dt_res_set(m, 0, 0);
	for (i = 1; i <= DT_BPF_NSPEC_MAX; i++) {
		if (i > n)
			break;
		s = dt_spec_entry(i);
		if (!s)
			break;
		w = s->state;
		if ((w & 1) == 0 && __sync_val_compare_and_swap(&s->state, w, w + 1) == w) {
			dt_res_set(m, 0, i);
			break;
		}
	}
	i = dt_res(m, 0);
	if (i == 0)
		__sync_fetch_and_add(&hdr->unavail, 1);
	return i;
}

/*
 * speculate(id): the tag the firing's sample carries ((gen << 32) | id,
 * never 0), or 0 when the firing is to be dropped (id 0 or not active).
 * An id above nspec faults ILLOP. FAULTS.
 */
DT_API u64 dt_spec_speculate(struct dt_bpf_mem *m, u64 id)
{
	struct dt_bpf_spec *hdr, *s;
	u64 w;

	if (id == 0)
		return 0;
	hdr = dt_spec_entry(0);
	if (!hdr || id > hdr->state || id > DT_BPF_NSPEC_MAX)
		return dt_fault(m, DTRACEFLT_ILLOP, id);
	s = dt_spec_entry(id);
	if (!s)
		return dt_fault(m, DTRACEFLT_ILLOP, id);
	w = s->state;
	if ((w & 1) == 0)
		return 0;
	return (w << 32) | id;
}

/* commit(id) / discard(id)'s check when the action runs. FAULTS. */
DT_API u64 dt_spec_check(struct dt_bpf_mem *m, u64 id)
{
	struct dt_bpf_spec *hdr = dt_spec_entry(0);

	if (id == 0)
		return 0;
	if (!hdr || id > hdr->state || id > DT_BPF_NSPEC_MAX)
		return dt_fault(m, DTRACEFLT_ILLOP, id);
	return 0;
}

/*
 * The speculative firing: m->buf holds the sample header (filled here),
 * `size` bytes of firing and, right after them, the struct dt_bpf_spec_tag
 * the translator stored.
 */
DT_API u64 dt_emit_spec(struct dt_bpf_mem *m, u64 size)
{
	struct dt_bpf_sample *s = (struct dt_bpf_sample *)m->buf;
	u64 n;

	s->cpu = bpf_get_smp_processor_id();
	s->kind = DT_BPF_SAMPLE_SPEC;
	n = size + sizeof(*s) + sizeof(struct dt_bpf_spec_tag);
	n = DT_CLAMP(n, DT_BPF_BUF_SIZE + 16);
	if (bpf_ringbuf_output(&dt_ring, m->buf, n, dt_ring_flags())) {
		dt_spec_drop();
		return 1;
	}
	return 0;
}

/*
 * commit(id) (commit 1) or discard(id) (commit 0), once the clause's
 * firing is out: an active id becomes free, and the consumer learns which
 * generation ended how.
 */
DT_API u64 dt_spec_end(struct dt_bpf_mem *m, u64 id, u64 commit)
{
	struct {
		struct dt_bpf_sample s;
		struct dt_bpf_spec_end e;
	} rec;
	struct dt_bpf_spec *s;
	u64 w;
	int tries;

	(void)m;
	if (id == 0 || id > DT_BPF_NSPEC_MAX)
		return 0;
	s = dt_spec_entry(id);
	if (!s)
		return 0;
	/* Another commit()/discard() of the same id may win the swap. */
	for (tries = 0; tries < 4; tries++) {
		w = s->state;
		if ((w & 1) == 0)
			return 0;
		if (__sync_val_compare_and_swap(&s->state, w, w + 1) == w)
			break;
	}
	if (tries == 4)
		return 0;
	rec.s.cpu = bpf_get_smp_processor_id();
	rec.s.kind = DT_BPF_SAMPLE_SPEC_END;
	rec.e.id = (uint32_t)id;
	rec.e.gen = (uint32_t)w;
	rec.e.commit = commit ? 1 : 0;
	rec.e.pad = 0;
	if (bpf_ringbuf_output(&dt_ring, &rec, sizeof(rec), dt_ring_flags())) {
		dt_spec_drop();
		return 1;
	}
	return 0;
}
