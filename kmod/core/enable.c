// SPDX-License-Identifier: GPL-2.0
/*
 * enable.c - DTRACEIOC_ENABLE: the program blob (uapi/dtrace/ioctl.h §4)
 * from the consumer to enabled probes (illumos dtrace_dof_slurp and
 * dtrace_enabling_match).
 *
 *   copy in ─► header and options ─► section tiling ─► DIF objects (each
 *   through dif_validate(), the same validator userspace runs; variable
 *   declarations consistent across every DIF object of the state) ─►
 *   aggregations (parameters bounded, value size recomputed) ─► ECBs and
 *   their action records (every offset and size inside its firing or
 *   key) ─► match each ECB's probe description (providers asked to
 *   provide first) ─► one ECB per matching probe, attached (the
 *   provider's enable) ─► the program joins the state.
 *
 * The kernel never trusts the blob: nothing is used before all of it is
 * checked, and a failure at any step leaves the state as it was, with the
 * reason in dten_errmsg and its place in dten_erroff.
 */
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "dif_emulate.h"
#include "dtrace_impl.h"

#define DTRACE_MAX_AGGKEY	(64u << 10)
#define DTRACE_MAX_NFRAMES	128
#define DTRACE_MAX_UFRAMES	1024	/* ustack(), jstack() (stack.c walks) */

struct dtrace_parse {
	struct dtrace_state *state;
	dtrace_enable_t *en;
	u8 *blob;
	u32 size;
	struct dtrace_prog *prog;
};

static __printf(4, 5) int dtrace_reject(struct dtrace_parse *ps, u64 off, int err,
					const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->en->dten_errmsg, sizeof(ps->en->dten_errmsg), fmt, ap);
	va_end(ap);
	ps->en->dten_erroff = (u32)min_t(u64, off, U32_MAX);
	return err;
}

static bool dtrace_str_ok(const char *s, size_t n)
{
	return strnlen(s, n) < n;
}

void dtrace_prog_free(struct dtrace_prog *prog)
{
	u32 i;

	if (!prog)
		return;
	if (prog->clauses)
		for (i = 0; i < prog->nclauses; i++)
			kvfree(prog->clauses[i].acts);
	kvfree(prog->clauses);
	kvfree(prog->difos);
	kvfree(prog->aggs);
	kvfree(prog->blob);
	kfree(prog);
}

struct dtrace_aggdesc *dtrace_state_agg(struct dtrace_state *state, u32 id)
{
	struct dtrace_prog *prog;
	u32 i;

	list_for_each_entry(prog, &state->progs, list)
		for (i = 0; i < prog->naggs; i++)
			if (prog->aggs[i].id == id)
				return &prog->aggs[i];
	return NULL;
}

/* ==== Header ========================================================= */

static int dtrace_parse_header(struct dtrace_parse *ps)
{
	dtrace_prog_hdr_t *h = (dtrace_prog_hdr_t *)ps->blob;
	struct dtrace_state *state = ps->state;
	int i;

	if (h->dtph_magic != DTRACE_PROG_MAGIC)
		return dtrace_reject(ps, 0, -EINVAL, "bad magic 0x%x", h->dtph_magic);
	if (h->dtph_version != DTRACE_PROG_VERSION)
		return dtrace_reject(ps, 4, -EINVAL, "program version %u, this kernel takes %u",
				     h->dtph_version, DTRACE_PROG_VERSION);
	if (h->dtph_hdrsize != sizeof(*h))
		return dtrace_reject(ps, 6, -EINVAL, "header size %u, expected %zu",
				     h->dtph_hdrsize, sizeof(*h));
	if (h->dtph_size != ps->size)
		return dtrace_reject(ps, 8, -EINVAL, "blob size %u, the ioctl says %u",
				     h->dtph_size, ps->size);
	for (i = 0; i < ARRAY_SIZE(h->dtph_reserved); i++)
		if (h->dtph_reserved[i])
			return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_reserved),
					     -EINVAL, "reserved header field set");
	if (h->dtph_flags & ~(DTRACE_PROGF_DESTRUCTIVE | DTRACE_PROGF_FILL | DTRACE_PROGF_RING |
			      DTRACE_PROGF_TIMESTAMP | DTRACE_PROGF_CPU))
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_flags), -EINVAL,
				     "unknown flags 0x%x", h->dtph_flags);
	if ((h->dtph_flags & DTRACE_PROGF_FILL) && (h->dtph_flags & DTRACE_PROGF_RING))
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_flags), -EINVAL,
				     "bufpolicy fill and ring at once");
	/* Any CPU number is taken here: GO refuses one that is not online. */
	if (!(h->dtph_flags & DTRACE_PROGF_CPU) && h->dtph_cpu)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_cpu), -EINVAL,
				     "a CPU without DTRACE_PROGF_CPU");
	if (h->dtph_spec_pad)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_spec_pad), -EINVAL,
				     "reserved header field set");
	if (h->dtph_nspec > DTRACE_MAX_NSPEC || h->dtph_specsize > DTRACE_MAX_SPECMEM ||
	    (u64)h->dtph_nspec * h->dtph_specsize > DTRACE_MAX_SPECMEM)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_nspec), -E2BIG,
				     "nspec %u of specsize %llu: at most %u, %llu bytes in all",
				     h->dtph_nspec, h->dtph_specsize, DTRACE_MAX_NSPEC,
				     DTRACE_MAX_SPECMEM);
	if (h->dtph_bufsize < 64 || h->dtph_bufsize % 8)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_bufsize), -EINVAL,
				     "bufsize %llu: at least 64, a multiple of 8",
				     h->dtph_bufsize);
	if (h->dtph_bufsize > DTRACE_MAX_BUFSIZE || h->dtph_aggsize > DTRACE_MAX_BUFSIZE)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_bufsize), -E2BIG,
				     "bufsize or aggsize over %llu", DTRACE_MAX_BUFSIZE);
	if (h->dtph_aggsize % 8)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_aggsize), -EINVAL,
				     "aggsize not a multiple of 8");
	if (h->dtph_dynvarsize > DTRACE_MAX_DYNVARSIZE ||
	    h->dtph_dynchunksize > h->dtph_dynvarsize / 2)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_dynvarsize), -E2BIG,
				     "dynvarsize over %llu, or chunks larger than half of it",
				     DTRACE_MAX_DYNVARSIZE);
	if (h->dtph_scratchsize > DTRACE_MAX_BUFSIZE)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_scratchsize), -E2BIG,
				     "scratchsize over %llu", DTRACE_MAX_BUFSIZE);
	if (h->dtph_strsize > DTRACE_MAX_STRSIZE)
		return dtrace_reject(ps, offsetof(dtrace_prog_hdr_t, dtph_strsize), -E2BIG,
				     "strsize over %u", DTRACE_MAX_STRSIZE);
	if (state->opts_set) {
		dtrace_prog_hdr_t a = state->opts, b = *h;

		/* Compare the options only (defaults applied as at first). */
		if (!b.dtph_strsize)
			b.dtph_strsize = DIF_STRSIZE_DEFAULT;
		if (!b.dtph_scratchsize)
			b.dtph_scratchsize = DTRACE_DFLT_SCRATCH;
		a.dtph_size = b.dtph_size;
		a.dtph_nsecs = b.dtph_nsecs;
		if (memcmp(&a, &b, sizeof(a)))
			return dtrace_reject(ps, 0, -EINVAL,
					     "options differ from the first ENABLE's");
	}
	return 0;
}

/* ==== DIF objects ==================================================== */

static bool dtrace_var_dynamic(const dtrace_difv_t *v)
{
	return v->dtdv_kind == DIFV_KIND_ARRAY || v->dtdv_scope == DIFV_SCOPE_THREAD;
}

static int dtrace_parse_difo(struct dtrace_parse *ps, u64 off, u32 psize, struct dtrace_difo *dp,
			     u32 n)
{
	const dtrace_prog_difo_t *h = (const dtrace_prog_difo_t *)(ps->blob + off);
	u64 need, p = off + sizeof(*h);
	dif_verr_t verr = { 0 };
	u32 i;

	if (psize < sizeof(*h))
		return dtrace_reject(ps, off, -EINVAL, "DIF object %u: truncated header", n);
	if (h->dtpd_len == 0 || h->dtpd_len > DTRACE_MAX_DIFO_LEN ||
	    h->dtpd_intlen > dtrace_dif_limits.max_intlen ||
	    h->dtpd_strlen > dtrace_dif_limits.max_strlen ||
	    h->dtpd_varlen > dtrace_dif_limits.max_varlen)
		return dtrace_reject(ps, off, -E2BIG, "DIF object %u: a table over the limits", n);
	need = sizeof(*h) + round_up((u64)h->dtpd_len * 4, 8) + (u64)h->dtpd_intlen * 8 +
	       round_up((u64)h->dtpd_strlen, 8) + (u64)h->dtpd_varlen * sizeof(dtrace_difv_t);
	if (need > psize)
		return dtrace_reject(ps, off, -EINVAL,
				     "DIF object %u: tables need %llu bytes, section has %u", n,
				     need, psize);

	dp->d.len = h->dtpd_len;
	dp->d.text = (const dif_instr_t *)(ps->blob + p);
	p += round_up((u64)h->dtpd_len * 4, 8);
	dp->d.intlen = h->dtpd_intlen;
	dp->d.inttab = h->dtpd_intlen ? (const uint64_t *)(ps->blob + p) : NULL;
	p += (u64)h->dtpd_intlen * 8;
	dp->d.strlen = h->dtpd_strlen;
	dp->d.strtab = h->dtpd_strlen ? (const char *)(ps->blob + p) : NULL;
	if (h->dtpd_strlen && dp->d.strtab[h->dtpd_strlen - 1] != '\0')
		return dtrace_reject(ps, p, -EINVAL,
				     "DIF object %u: string table not NUL-terminated", n);
	p += round_up((u64)h->dtpd_strlen, 8);
	dp->d.varlen = h->dtpd_varlen;
	dp->d.vartab = h->dtpd_varlen ? (const dtrace_difv_t *)(ps->blob + p) : NULL;
	dp->d.rtype = h->dtpd_rtype;

	if (dif_validate(&dp->d, &dtrace_dif_limits, &verr))
		return dtrace_reject(ps, off + sizeof(*h) + verr.offset, -EINVAL,
				     "DIF object %u: %s at offset %u", n,
				     verr.reason ? verr.reason : "invalid", verr.offset);
	for (i = 0; i < dp->d.varlen; i++)
		if (dtrace_var_dynamic(&dp->d.vartab[i]))
			dp->dstate = true;
	return 0;
}

/* A user variable has one kind and one type in every DIF object of the state. */
static int dtrace_check_var(struct dtrace_parse *ps, const dtrace_difv_t *v, u32 n)
{
	struct dtrace_prog *prog;
	const dtrace_difv_t *w;
	u32 i, j;

	if (v->dtdv_id < DIF_VAR_OTHER_UBASE &&
	    (v->dtdv_id < DIF_VAR_ARRAY_UBASE || v->dtdv_id > DIF_VAR_ARRAY_MAX))
		return 0;		/* built-in */
	for (i = 0; i < n; i++) {
		const dif_difo_t *d = &ps->prog->difos[i].d;

		for (j = 0; j < d->varlen; j++) {
			w = &d->vartab[j];
			if (w->dtdv_id == v->dtdv_id && w->dtdv_scope == v->dtdv_scope &&
			    (w->dtdv_kind != v->dtdv_kind ||
			     memcmp(&w->dtdv_type, &v->dtdv_type, sizeof(w->dtdv_type))))
				return -EINVAL;
		}
	}
	list_for_each_entry(prog, &ps->state->progs, list)
		for (i = 0; i < prog->ndifos; i++)
			for (j = 0; j < prog->difos[i].d.varlen; j++) {
				w = &prog->difos[i].d.vartab[j];
				if (w->dtdv_id == v->dtdv_id && w->dtdv_scope == v->dtdv_scope &&
				    (w->dtdv_kind != v->dtdv_kind ||
				     memcmp(&w->dtdv_type, &v->dtdv_type, sizeof(w->dtdv_type))))
					return -EINVAL;
			}
	return 0;
}

/* ==== Aggregations =================================================== */

static int dtrace_parse_agg(struct dtrace_parse *ps, u64 off, u32 psize,
			    struct dtrace_aggdesc *ag, u32 n)
{
	const dtrace_prog_agg_t *a = (const dtrace_prog_agg_t *)(ps->blob + off);
	u32 i, nwords;
	bool ok;

	if (psize < sizeof(*a))
		return dtrace_reject(ps, off, -EINVAL, "aggregation section truncated");
	if (a->dtpa_id == 0 || dtrace_state_agg(ps->state, a->dtpa_id))
		return dtrace_reject(ps, off, -EINVAL, "aggregation id %u invalid or taken",
				     a->dtpa_id);
	for (i = 0; i < n; i++)
		if (ps->prog->aggs[i].id == a->dtpa_id)
			return dtrace_reject(ps, off, -EINVAL, "aggregation id %u twice",
					     a->dtpa_id);
	if (a->dtpa_nparams > ARRAY_SIZE(a->dtpa_params))
		return dtrace_reject(ps, off, -EINVAL, "aggregation %u: %u parameters",
				     a->dtpa_id, a->dtpa_nparams);
	for (i = a->dtpa_nparams; i < ARRAY_SIZE(a->dtpa_params); i++)
		if (a->dtpa_params[i])
			return dtrace_reject(ps, off, -EINVAL,
					     "aggregation %u: unused parameter set", a->dtpa_id);
	if (a->dtpa_keysize > DTRACE_MAX_AGGKEY)
		return dtrace_reject(ps, off, -E2BIG, "aggregation %u: key of %u bytes",
				     a->dtpa_id, a->dtpa_keysize);
	nwords = dtrace_agg_nwords(a->dtpa_func, a->dtpa_params, a->dtpa_nparams, &ok);
	if (!ok)
		return dtrace_reject(ps, off, -EINVAL,
				     "aggregation %u: unknown function 0x%x or bad parameters",
				     a->dtpa_id, a->dtpa_func);
	if (nwords != a->dtpa_nwords)
		return dtrace_reject(ps, off, -EINVAL,
				     "aggregation %u: %u value words, the function has %u",
				     a->dtpa_id, a->dtpa_nwords, nwords);
	ag->id = a->dtpa_id;
	ag->func = a->dtpa_func;
	ag->keysize = a->dtpa_keysize;
	ag->nwords = nwords;
	for (i = 0; i < ARRAY_SIZE(ag->params); i++)
		ag->params[i] = a->dtpa_params[i];
	return 0;
}

/* ==== ECBs and actions =============================================== */

static bool dtrace_act_supported(u16 kind, const dtrace_prog_hdr_t *h)
{
	/* system() is a record the consumer acts on; only with -w. */
	if (kind == DTRACEACT_SYSTEM)
		return h->dtph_flags & DTRACE_PROGF_DESTRUCTIVE;
	/* chill() spins in probe context (probe.c dtrace_chill()); only with -w. */
	if (kind == DTRACEACT_CHILL)
		return h->dtph_flags & DTRACE_PROGF_DESTRUCTIVE;
	if (DTRACEACT_ISDESTRUCTIVE(kind))
		return false;
	return true;
}

/* Does a value of this kind fit size bytes? */
static bool dtrace_vsize_ok(const dtrace_prog_act_t *a)
{
	switch (a->dtpa_vkind) {
	case DTRACE_PV_INT:
		return a->dtpa_size == 1 || a->dtpa_size == 2 || a->dtpa_size == 4 ||
		       a->dtpa_size == 8;
	case DTRACE_PV_STRING:
	case DTRACE_PV_BYTES:
		return a->dtpa_size >= 1;
	case DTRACE_PV_STACK:
		return a->dtpa_nframes >= 1 && a->dtpa_nframes <= DTRACE_MAX_NFRAMES &&
		       a->dtpa_size == 8u * a->dtpa_nframes;
	case DTRACE_PV_PIDADDR:
		return a->dtpa_size == 16;
	case DTRACE_PV_USTACK:
		return a->dtpa_nframes >= 1 && a->dtpa_nframes <= DTRACE_MAX_UFRAMES &&
		       a->dtpa_size >= 8u + 8u * a->dtpa_nframes;
	}
	return false;
}

static struct dtrace_aggdesc *dtrace_prog_agg(struct dtrace_prog *prog, u32 id)
{
	u32 i;

	for (i = 0; i < prog->naggs; i++)
		if (prog->aggs[i].id == id)
			return &prog->aggs[i];
	return NULL;
}

static int dtrace_parse_ecb(struct dtrace_parse *ps, u64 off, u32 psize,
			    struct dtrace_clause *cl, u32 n)
{
	const dtrace_prog_ecb_t *e = (const dtrace_prog_ecb_t *)(ps->blob + off);
	const dtrace_prog_act_t *acts = (const dtrace_prog_act_t *)(e + 1);
	struct dtrace_prog *prog = ps->prog;
	u64 bufsize = ps->state->opts_set ? ps->state->opts.dtph_bufsize :
		      ((dtrace_prog_hdr_t *)ps->blob)->dtph_bufsize;
	u32 i, size;

	if (psize < sizeof(*e) ||
	    (u64)e->dtpe_nacts * sizeof(*acts) > psize - sizeof(*e))
		return dtrace_reject(ps, off, -EINVAL, "ECB %u: truncated", n);
	if (!dtrace_str_ok(e->dtpe_provider, sizeof(e->dtpe_provider)) ||
	    !dtrace_str_ok(e->dtpe_mod, sizeof(e->dtpe_mod)) ||
	    !dtrace_str_ok(e->dtpe_func, sizeof(e->dtpe_func)) ||
	    !dtrace_str_ok(e->dtpe_name, sizeof(e->dtpe_name)))
		return dtrace_reject(ps, off, -EINVAL,
				     "ECB %u: probe description not NUL-terminated", n);
	if (e->dtpe_pred > prog->ndifos)
		return dtrace_reject(ps, off, -EINVAL, "ECB %u: no DIF object %u", n,
				     e->dtpe_pred);
	/* 0: every action stores nothing, the firing writes no record. */
	size = e->dtpe_size > bufsize || !e->dtpe_size ? 0 :
	       round_up(max_t(u32, e->dtpe_size, sizeof(dtrace_rechdr_t)), 8);
	if (e->dtpe_size > bufsize || size > bufsize)
		return dtrace_reject(ps, off, -EINVAL, "ECB %u: firing of %u bytes, bufsize %llu",
				     n, e->dtpe_size, bufsize);
	cl->cookie = e->dtpe_cookie;
	cl->size = size;
	cl->pred = e->dtpe_pred ? &prog->difos[e->dtpe_pred - 1] : NULL;
	cl->dstate = cl->pred && cl->pred->dstate;
	cl->vm = cl->pred != NULL;
	cl->nacts = e->dtpe_nacts;
	if (cl->nacts) {
		cl->acts = kvcalloc(cl->nacts, sizeof(*cl->acts), GFP_KERNEL);
		if (!cl->acts)
			return -ENOMEM;
	}

	for (i = 0; i < cl->nacts; i++) {
		const dtrace_prog_act_t *a = &acts[i];
		struct dtrace_act *k = &cl->acts[i];
		u64 aoff = (const u8 *)a - ps->blob;
		bool agg = DTRACEACT_ISAGG(a->dtpa_kind);

		if (a->dtpa_kind == DTRACEACT_SYSTEM &&
		    !dtrace_act_supported(a->dtpa_kind, (dtrace_prog_hdr_t *)ps->blob))
			return dtrace_reject(ps, aoff, -EPERM,
					     "ECB %u action %u: system() is destructive: not allowed without -w",
					     n, i + 1);
		if (!dtrace_act_supported(a->dtpa_kind, (dtrace_prog_hdr_t *)ps->blob))
			return dtrace_reject(ps, aoff, -EOPNOTSUPP,
					     "ECB %u action %u: action kind 0x%x is not supported yet",
					     n, i + 1, a->dtpa_kind);
		/* speculate(), commit(), discard(): one record with its id. */
		if (DTRACEACT_ISSPECULATIVE(a->dtpa_kind) &&
		    (a->dtpa_role != DTRACE_PROLE_ARG || !a->dtpa_difo ||
		     !(a->dtpa_flags & DTRACE_PACT_FIRST) || a->dtpa_vkind != DTRACE_PV_INT))
			return dtrace_reject(ps, aoff, -EINVAL,
					     "ECB %u action %u: a speculative action needs its speculation id",
					     n, i + 1);
		if (a->dtpa_role > DTRACE_PROLE_INCR || a->dtpa_vkind > DTRACE_PV_USTACK ||
		    (a->dtpa_flags & ~DTRACE_PACT_FIRST) || a->dtpa_difo > prog->ndifos ||
		    agg != (a->dtpa_role != DTRACE_PROLE_ARG))
			return dtrace_reject(ps, aoff, -EINVAL,
					     "ECB %u action %u: bad role, kind, flags or DIF object",
					     n, i + 1);
		k->kind = a->dtpa_kind;
		k->role = a->dtpa_role;
		k->vkind = a->dtpa_vkind;
		k->nframes = a->dtpa_nframes;
		k->flags = a->dtpa_flags;
		k->difo = a->dtpa_difo ? &prog->difos[a->dtpa_difo - 1] : NULL;
		k->offset = a->dtpa_offset;
		k->size = a->dtpa_size;
		if (k->difo && k->difo->dstate)
			cl->dstate = true;
		if (k->difo)
			cl->vm = true;

		if (a->dtpa_role == DTRACE_PROLE_ARG) {
			if (a->dtpa_aggid)
				return dtrace_reject(ps, aoff, -EINVAL,
						     "ECB %u action %u: aggregation id on a record",
						     n, i + 1);
			if (a->dtpa_size &&
			    (!dtrace_vsize_ok(a) || a->dtpa_offset < sizeof(dtrace_rechdr_t) ||
			     (u64)a->dtpa_offset + a->dtpa_size > size))
				return dtrace_reject(ps, aoff, -EINVAL,
						     "ECB %u action %u: record at %u, %u bytes, does not fit a %u-byte firing",
						     n, i + 1, a->dtpa_offset, a->dtpa_size, size);
			continue;
		}
		k->agg = dtrace_prog_agg(prog, a->dtpa_aggid);
		if (!k->agg || k->agg->func != a->dtpa_kind)
			return dtrace_reject(ps, aoff, -EINVAL,
					     "ECB %u action %u: no aggregation %u of this function",
					     n, i + 1, a->dtpa_aggid);
		cl->maxkey = max(cl->maxkey, k->agg->keysize);
		if (a->dtpa_role == DTRACE_PROLE_KEY) {
			if (!a->dtpa_size || !dtrace_vsize_ok(a) ||
			    (u64)a->dtpa_offset + a->dtpa_size > k->agg->keysize)
				return dtrace_reject(ps, aoff, -EINVAL,
						     "ECB %u action %u: key record outside the %u-byte key",
						     n, i + 1, k->agg->keysize);
			continue;
		}
		if (a->dtpa_size)
			return dtrace_reject(ps, aoff, -EINVAL,
					     "ECB %u action %u: aggregated values record nothing",
					     n, i + 1);
		if (a->dtpa_role == DTRACE_PROLE_INCR &&
		    (i == 0 || acts[i - 1].dtpa_role != DTRACE_PROLE_VAL ||
		     acts[i - 1].dtpa_aggid != a->dtpa_aggid))
			return dtrace_reject(ps, aoff, -EINVAL,
					     "ECB %u action %u: increment without its value",
					     n, i + 1);
	}
	return 0;
}

/* ==== The blob ======================================================= */

static int dtrace_parse(struct dtrace_parse *ps)
{
	const dtrace_prog_hdr_t *h = (const dtrace_prog_hdr_t *)ps->blob;
	struct dtrace_prog *prog = ps->prog;
	u32 ndifo = 0, nagg = 0, necb = 0, nsec = 0, i, j;
	u64 off;
	int err;

	err = dtrace_parse_header(ps);
	if (err)
		return err;

	/* The sections tile the blob; count them by type. */
	for (off = sizeof(*h); off < ps->size; nsec++) {
		const dtrace_prog_sec_t *s = (const dtrace_prog_sec_t *)(ps->blob + off);

		if (ps->size - off < sizeof(*s) || s->dtps_size < sizeof(*s) ||
		    s->dtps_size % 8 || s->dtps_size > ps->size - off)
			return dtrace_reject(ps, off, -EINVAL, "section %u: bad size", nsec);
		switch (s->dtps_type) {
		case DTRACE_PSEC_DIFO:
			ndifo++;
			break;
		case DTRACE_PSEC_AGG:
			nagg++;
			break;
		case DTRACE_PSEC_ECB:
			necb++;
			break;
		default:
			return dtrace_reject(ps, off, -EINVAL, "section %u: unknown type %u",
					     nsec, s->dtps_type);
		}
		off += s->dtps_size;
	}
	if (nsec != h->dtph_nsecs)
		return dtrace_reject(ps, 12, -EINVAL, "%u sections, the header says %u", nsec,
				     h->dtph_nsecs);
	if (necb > DTRACE_MAX_ECBS)
		return dtrace_reject(ps, 0, -E2BIG, "%u ECBs, at most %u", necb,
				     DTRACE_MAX_ECBS);

	prog->difos = kvcalloc(ndifo ?: 1, sizeof(*prog->difos), GFP_KERNEL);
	prog->aggs = kvcalloc(nagg ?: 1, sizeof(*prog->aggs), GFP_KERNEL);
	prog->clauses = kvcalloc(necb ?: 1, sizeof(*prog->clauses), GFP_KERNEL);
	if (!prog->difos || !prog->aggs || !prog->clauses)
		return -ENOMEM;

	/* DIF objects and aggregations first: ECBs refer to them. */
	for (off = sizeof(*h); off < ps->size; off += ((dtrace_prog_sec_t *)(ps->blob + off))->dtps_size) {
		const dtrace_prog_sec_t *s = (const dtrace_prog_sec_t *)(ps->blob + off);
		u32 psize = s->dtps_size - sizeof(*s);

		if (s->dtps_type == DTRACE_PSEC_DIFO) {
			err = dtrace_parse_difo(ps, off + sizeof(*s), psize,
						&prog->difos[prog->ndifos], prog->ndifos + 1);
			if (err)
				return err;
			prog->ndifos++;
		} else if (s->dtps_type == DTRACE_PSEC_AGG) {
			err = dtrace_parse_agg(ps, off + sizeof(*s), psize,
					       &prog->aggs[prog->naggs], prog->naggs);
			if (err)
				return err;
			prog->naggs++;
		}
	}
	for (i = 0; i < prog->ndifos; i++)
		for (j = 0; j < prog->difos[i].d.varlen; j++)
			if (dtrace_check_var(ps, &prog->difos[i].d.vartab[j], i))
				return dtrace_reject(ps, 0, -EINVAL,
						     "DIF object %u: variable 0x%x declared differently elsewhere",
						     i + 1, prog->difos[i].d.vartab[j].dtdv_id);
	for (off = sizeof(*h); off < ps->size; off += ((dtrace_prog_sec_t *)(ps->blob + off))->dtps_size) {
		const dtrace_prog_sec_t *s = (const dtrace_prog_sec_t *)(ps->blob + off);

		if (s->dtps_type != DTRACE_PSEC_ECB)
			continue;
		err = dtrace_parse_ecb(ps, off + sizeof(*s), s->dtps_size - sizeof(*s),
				       &prog->clauses[prog->nclauses], prog->nclauses + 1);
		prog->nclauses++;	/* its actions are freed with the program */
		if (err)
			return err;
	}
	return 0;
}

/* ==== Matching: ECBs ================================================= */

static int dtrace_state_add_ecb(struct dtrace_state *state, struct dtrace_ecb *ecb)
{
	if (state->necbs == state->ecbs_cap) {
		u32 cap = max(16u, state->ecbs_cap * 2);
		struct dtrace_ecb **n;

		if (state->necbs >= DTRACE_MAX_EPIDS)
			return -E2BIG;
		n = kvmalloc_array(cap, sizeof(*n), GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		if (state->ecbs)
			memcpy(n, state->ecbs, state->necbs * sizeof(*n));
		kvfree(state->ecbs);
		state->ecbs = n;
		state->ecbs_cap = cap;
	}
	state->ecbs[state->necbs++] = ecb;
	ecb->epid = state->necbs;
	return 0;
}

static int dtrace_prog_match(struct dtrace_parse *ps)
{
	struct dtrace_state *state = ps->state;
	struct dtrace_prog *prog = ps->prog;
	const dtrace_prog_hdr_t *h = (const dtrace_prog_hdr_t *)ps->blob;
	u32 first = state->necbs, i, made = 0;
	u64 off = sizeof(*h);
	int err = 0;

	for (i = 0; i < prog->nclauses && !err; i++) {
		const dtrace_prog_ecb_t *e;
		dtrace_probedesc_t desc = { 0 };
		struct dtrace_probe *p;
		u32 id = 1;

		/* Find the i-th ECB section again for its description. */
		for (;;) {
			const dtrace_prog_sec_t *s = (const dtrace_prog_sec_t *)(ps->blob + off);

			off += s->dtps_size;
			if (s->dtps_type == DTRACE_PSEC_ECB) {
				e = (const dtrace_prog_ecb_t *)(s + 1);
				break;
			}
		}
		strscpy(desc.dtpd_provider, e->dtpe_provider, sizeof(desc.dtpd_provider));
		strscpy(desc.dtpd_mod, e->dtpe_mod, sizeof(desc.dtpd_mod));
		strscpy(desc.dtpd_func, e->dtpe_func, sizeof(desc.dtpd_func));
		strscpy(desc.dtpd_name, e->dtpe_name, sizeof(desc.dtpd_name));
		dtrace_provide_all(&desc);

		mutex_lock(&dtrace_lock);
		while ((p = dtrace_probe_next(id, &desc))) {
			struct dtrace_ecb *ecb;

			id = p->id + 1;
			if (p->prov->defunct)
				continue;
			ecb = kzalloc(sizeof(*ecb), GFP_KERNEL);
			if (!ecb) {
				err = -ENOMEM;
				break;
			}
			ecb->state = state;
			ecb->probe = p;
			ecb->clause = &prog->clauses[i];
			err = dtrace_state_add_ecb(state, ecb);
			if (err) {
				kfree(ecb);
				break;
			}
			err = dtrace_ecb_attach(ecb);
			if (err) {
				state->necbs--;
				kfree(ecb);	/* never linked: no reader saw it */
				dtrace_reject(ps, 0, err, "%s:%s:%s:%s: the provider refused to enable it (%d)",
					      p->prov->name, p->mod, p->func, p->name, err);
				break;
			}
			made++;
		}
		mutex_unlock(&dtrace_lock);
	}
	if (!err) {
		ps->en->dten_nprobes = made;
		ps->en->dten_first_epid = made ? first + 1 : DTRACE_IDNONE;
		return 0;
	}

	/* Roll back every ECB this call made. */
	mutex_lock(&dtrace_lock);
	for (i = first; i < state->necbs; i++)
		dtrace_ecb_detach(state->ecbs[i]);
	mutex_unlock(&dtrace_lock);
	synchronize_rcu();
	for (i = first; i < state->necbs; i++)
		kfree(state->ecbs[i]);
	state->necbs = first;
	return err;
}

int dtrace_enable(struct dtrace_state *state, dtrace_enable_t *en)
{
	struct dtrace_parse ps = { .state = state, .en = en };
	dtrace_prog_hdr_t *h;
	u32 i, j;
	int err;

	lockdep_assert_held(&state->lock);
	en->dten_nprobes = 0;
	en->dten_first_epid = 0;
	en->dten_erroff = 0;
	memset(en->dten_errmsg, 0, sizeof(en->dten_errmsg));
	if (state->activity != DTRACE_ACTIVITY_INACTIVE)
		return dtrace_reject(&ps, 0, -EBUSY, "tracing already started");
	if (en->dten_size < sizeof(dtrace_prog_hdr_t) || en->dten_size % 8)
		return dtrace_reject(&ps, 0, -EINVAL, "blob of %u bytes", en->dten_size);
	if (en->dten_size > DTRACE_MAX_PROG_SIZE)
		return dtrace_reject(&ps, 0, -E2BIG, "blob over %u bytes", DTRACE_MAX_PROG_SIZE);

	ps.prog = kzalloc(sizeof(*ps.prog), GFP_KERNEL);
	ps.blob = kvmalloc(en->dten_size, GFP_KERNEL);
	if (!ps.prog || !ps.blob) {
		kvfree(ps.blob);
		kfree(ps.prog);
		return -ENOMEM;
	}
	ps.prog->blob = ps.blob;
	ps.size = en->dten_size;
	if (copy_from_user(ps.blob, (const void __user *)(uintptr_t)en->dten_prog, ps.size)) {
		err = -EFAULT;
		goto fail;
	}
	err = dtrace_parse(&ps);
	if (err)
		goto fail;
	err = dtrace_prog_match(&ps);
	if (err)
		goto fail;

	h = (dtrace_prog_hdr_t *)ps.blob;
	if (!state->opts_set) {
		state->opts = *h;
		if (!state->opts.dtph_strsize)
			state->opts.dtph_strsize = DIF_STRSIZE_DEFAULT;
		if (!state->opts.dtph_scratchsize)
			state->opts.dtph_scratchsize = DTRACE_DFLT_SCRATCH;
		state->opts_set = true;
	}
	list_add_tail(&ps.prog->list, &state->progs);
	/* Speculative buffers are allocated at GO only for a state that speculates. */
	for (i = 0; i < ps.prog->nclauses; i++)
		for (j = 0; j < ps.prog->clauses[i].nacts; j++)
			switch (ps.prog->clauses[i].acts[j].kind) {
			case DTRACEACT_SPECULATE:
				state->speculates = true;
				break;
			case DTRACEACT_COMMIT:
			case DTRACEACT_DISCARD:
				state->spec_ends = true;
				break;
			}
	return 0;
fail:
	dtrace_prog_free(ps.prog);
	return err;
}
