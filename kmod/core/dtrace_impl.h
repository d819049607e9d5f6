/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dtrace_impl.h - the core module's objects and how its files share them.
 *
 *   registry.c        providers and probes: dtrace_register() ... the
 *                     probe id table (an xarray read locklessly in probe
 *                     context), matching, module pins
 *   enable.c          DTRACEIOC_ENABLE: copy in, validate the program
 *                     blob, build clauses and ECBs
 *   ecb.c             attach/detach ECBs to probes (provider enable/disable)
 *   probe.c           dtrace_probe(): nesting guard, the ECB loop
 *   dif.c             the DIF VM's kernel environment (dif_env_ops_t)
 *   vm_*.c            the shared VM sources (core/dif) compiled in
 *   agg.c             the per-CPU agg buffers; the aggregating functions'
 *                     arithmetic is core/dif/dif_agg.h (shared, inline)
 *   buffer.c          per-CPU principal buffers, the switch cross-call
 *   state.c           consumer state: open/close, GO, STOP, variables
 *   spec.c            speculations: speculation(), speculate, commit,
 *                     discard, the speculative buffers and their cleaner
 *   dtrace_provider.c the built-in dtrace provider: BEGIN END ERROR
 *   dev.c             /dev/dtrace and its ioctls; module init/exit
 *
 * Objects (illumos dtrace_impl.h):
 *
 *   dtrace_probe ──ecbs──► dtrace_ecb ─► dtrace_ecb ─► ...   (RCU chain)
 *        │                     │ state   ─► dtrace_state (one per open)
 *        │                     └ clause  ─► dtrace_clause: predicate,
 *        │                                  actions (dtrace_act → difo)
 *        └ prov ─► dtrace_provider (pops, arg)
 *
 * Locks: dtrace_provider_lock (mutex) orders before dtrace_lock (mutex).
 * dtrace_provider_lock guards the provider list and is held across
 * dtps_provide; dtrace_lock guards the probe table, every probe's ECB
 * chain and every state's activity changes, and is held across
 * dtps_enable/dtps_disable. Each state has its own mutex for its ioctls,
 * taken before the global ones. Probe context takes none of them: it
 * reads the probe table and ECB chains under RCU (interrupts are off) and
 * writes only its own CPU's buffers; the one shared structure it writes,
 * a state's dynamic variables, is guarded by an arch spinlock taken with
 * interrupts off and never on the same CPU twice (the nesting guard).
 * Nothing probe context can reach is freed before synchronize_rcu().
 */
#ifndef _DTRACE_IMPL_H
#define _DTRACE_IMPL_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <dtrace/provider.h>
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/ioctl.h>

#include "dif_env.h"
#include "dif_validate.h"

/* Limits (DTRACEIOC_CONF reports them). */
#define DTRACE_MAX_PROG_SIZE	(16u << 20)
#define DTRACE_MAX_ECBS		4096
#define DTRACE_MAX_DIFO_LEN	(64u * 1024)
#define DTRACE_MAX_BUFSIZE	(64ull << 20)
#define DTRACE_MAX_DYNVARSIZE	(256ull << 20)
#define DTRACE_MAX_STRSIZE	(64u << 10)
#define DTRACE_MAX_EPIDS	(1u << 20)
#define DTRACE_DFLT_SCRATCH	(64u << 10)
#define DTRACE_MAX_AGGWORDS	4096

/* ---- registry.c ---------------------------------------------------- */

struct dtrace_provider {
	struct list_head list;
	u32 id;
	char name[DTRACE_PROVNAMELEN];
	dtrace_pattr_t attr;
	u32 priv;
	const dtrace_pops_t *pops;
	void *arg;
	bool defunct;
	u32 nprobes;
};

struct dtrace_ecb;

struct dtrace_probe {
	dtrace_id_t id;
	struct dtrace_provider *prov;
	void *arg;
	int aframes;
	u32 flags;			/* DTRACE_PROBE_F_* */
	char *mod, *func, *name;
	struct dtrace_ecb __rcu *ecbs;	/* under dtrace_lock; RCU readers */
	u32 necbs;
};

extern struct mutex dtrace_provider_lock;
extern struct mutex dtrace_lock;
extern struct xarray dtrace_probes;
extern struct list_head dtrace_providers;

int dtrace_registry_init(void);
void dtrace_registry_exit(void);
u32 dtrace_nprobes(void);
u32 dtrace_nproviders(void);

/* Probe matching (PROBEMATCH, ENABLE); fields are globs, "" any. */
bool dtrace_match_glob(const char *pattern, const char *s);
bool dtrace_probe_matches(const struct dtrace_probe *p, const char *prov,
			  const char *mod, const char *func, const char *name);
/* Ask every provider (or those matching desc) to provide. */
void dtrace_provide_all(const dtrace_probedesc_t *desc);
/* The first probe with id >= *id (matching desc if non-NULL), under dtrace_lock. */
struct dtrace_probe *dtrace_probe_next(u32 id, const dtrace_probedesc_t *desc);
struct dtrace_provider *dtrace_provider_find(const char *name, u32 minid);

/* Module pins: a reference on every provider module per open consumer. */
struct dtrace_state;
int dtrace_pins_open(struct dtrace_state *state);
void dtrace_pins_close(struct dtrace_state *state);

/* ---- enable.c: the program ------------------------------------------ */

struct dtrace_difo {
	dif_difo_t d;			/* tables point into the blob copy */
	bool dstate;			/* uses self-> or associative arrays */
};

struct dtrace_aggdesc {
	u32 id;
	u16 func;
	u32 keysize;
	u32 nwords;
	s64 params[4];
};

struct dtrace_act {
	u16 kind;
	u8 role;
	u8 vkind;
	u16 nframes;
	u16 flags;
	struct dtrace_difo *difo;
	u32 offset;
	u32 size;
	struct dtrace_aggdesc *agg;
};

struct dtrace_clause {
	u32 cookie;
	u32 size;			/* firing size, 8-aligned; 0: no record */
	struct dtrace_difo *pred;
	u32 nacts;
	struct dtrace_act *acts;
	bool dstate;			/* some DIF uses dynamic variables */
	bool vm;			/* some DIF to run: the VM context is set up */
	u32 maxkey;			/* largest aggregation key */
};

struct dtrace_prog {
	struct list_head list;		/* on state->progs */
	void *blob;			/* the validated copy */
	u32 ndifos, naggs, nclauses;
	struct dtrace_difo *difos;
	struct dtrace_aggdesc *aggs;
	struct dtrace_clause *clauses;
};

int dtrace_enable(struct dtrace_state *state, dtrace_enable_t *en);
void dtrace_prog_free(struct dtrace_prog *prog);
struct dtrace_aggdesc *dtrace_state_agg(struct dtrace_state *state, u32 id);

/* ---- ecb.c ---------------------------------------------------------- */

struct dtrace_ecb {
	struct dtrace_ecb __rcu *next;	/* on probe->ecbs */
	struct dtrace_state *state;
	struct dtrace_probe *probe;
	const struct dtrace_clause *clause;
	u32 epid;
};

/* Under dtrace_lock. */
int dtrace_ecb_attach(struct dtrace_ecb *ecb);
void dtrace_ecb_detach(struct dtrace_ecb *ecb);

/* ---- buffer.c ------------------------------------------------------- */

struct dtrace_buffer {
	u8 *data;
	u64 size;
	u64 offset;			/* where the next firing goes */
	u64 drops;
	u64 errors;
	bool filled;			/* bufpolicy=fill: full, stops recording */
	bool wrapped;			/* bufpolicy=ring: [woff, wrap_end) holds */
	u64 woff, wrap_end;		/* the oldest firings, before [0, offset) */
};

/* One CPU's aggregation buffer: entries grow up, buckets at the top. */
struct dtrace_aggbuf {
	u8 *data;
	u64 size;			/* bytes for entries */
	u64 used;
	u32 *buckets;
	u32 nbuckets;
	u64 drops;
};

struct dtrace_state_cpu {
	struct dtrace_buffer buf[2];	/* principal: buf[active] is live */
	struct dtrace_aggbuf agg[2];
	int active;			/* principal: changed only on this CPU, IRQs off */
	int agg_active;			/* aggregation: likewise */
	u64 switched;			/* ns of the last switch */
	char *scratch;
	char *strtok_buf;		/* strsize bytes: dif_ctx_t::strtok_buf */
	u64 *locals;
	dif_varbuf_t *lrefs;
	u64 firing;			/* the firing its locals belong to */
	u8 *keybuf;			/* aggregation key being built */
	/*
	 * This CPU's DIF VM context: what does not change between firings
	 * (ops, scratch, variable storage, the rand() state) is set once at
	 * GO; a firing sets env, resets scratch (strtok once per firing), and
	 * only when its clause runs DIF. Probe context only, interrupts off.
	 */
	dif_ctx_t ctx;
};

int dtrace_buffers_alloc(struct dtrace_state *state);
/*
 * Probe context: room for a firing of size bytes in buf, as the state's
 * bufpolicy says (switch: drop when full; fill: drop and mark the buffer
 * filled when full, keeping end_reserve bytes for END; ring: overwrite
 * the oldest firings), or NULL and a drop. The caller commits by adding
 * size to buf->offset.
 */
u8 *dtrace_buffer_reserve_slow(struct dtrace_state *state, struct dtrace_buffer *buf, u64 size,
			       bool is_end);

/* How many CPUs' principal buffers filled (bufpolicy=fill). */
u32 dtrace_buffers_filled(struct dtrace_state *state);
void dtrace_buffers_free(struct dtrace_state *state);
/* BUFSNAP/AGGSNAP: switch cpu's buffers and copy the inactive one out. */
int dtrace_buffer_snap(struct dtrace_state *state, dtrace_bufdesc_t *desc, bool agg);

/* ---- agg.c ---------------------------------------------------------- */

/* Fold val (weight incr) into the entry for (agg, key); false on a drop. */
bool dtrace_aggregate(struct dtrace_aggbuf *ab, const struct dtrace_aggdesc *agg,
		      const u8 *key, s64 val, s64 incr);
void dtrace_aggbuf_reset(struct dtrace_aggbuf *ab);
u32 dtrace_agg_nwords(u16 func, const s64 *params, u32 nparams, bool *ok);

/* ---- state.c -------------------------------------------------------- */

struct dtrace_pin {
	struct list_head list;
	struct module *mod;
};

struct dtrace_state {
	struct mutex lock;		/* this consumer's ioctls */
	struct list_head list;		/* on dtrace_states (dtrace_lock) */
	int activity;			/* DTRACE_ACTIVITY_*, WRITE_ONCE/cmpxchg */
	bool opts_set;
	dtrace_prog_hdr_t opts;		/* the options of the first ENABLE */

	struct list_head progs;
	struct dtrace_ecb **ecbs;	/* [epid - 1] */
	u32 necbs, ecbs_cap;

	/* Variables, built at GO from every DIF object's vartab. */
	u64 *globals;
	dif_varbuf_t *grefs;
	u32 nglobals, nlocals;
	u8 *varmem;			/* by-ref globals, then each CPU's locals */
	u64 varmem_size;
	u64 locals_size;		/* by-ref locals of one CPU */
	u64 locals_off;			/* where CPU 0's are in varmem */
	u32 *lref_off;			/* [nlocals]: offset in a CPU's part, or ~0 */
	u64 *lref_size;
	dif_dstate_t dstate;
	void *dynmem;
	bool have_dstate;
	arch_spinlock_t dlock;		/* dstate, globals' by-ref buffers */

	struct dtrace_state_cpu **cpus;	/* [nr_cpu_ids], NULL for absent CPUs */
	u32 bufpolicy;			/* DTRACE_PROGF_FILL, _RING or 0 (switch) */
	u64 end_reserve;		/* fill: bytes kept for END's firings */

	atomic64_t errors, dblerrors;
	int exitcpu;
	bool exiting;

	/* spec.c: speculations, from GO (nspec of them). */
	struct dtrace_spec *specs;
	u32 nspec;
	bool speculates;		/* some ECB speculates: buffers needed */
	bool spec_ends;			/* some ECB commits or discards: cleaner */
	bool spec_running;		/* the cleaner is scheduled */
	unsigned long spec_cleanticks;
	struct delayed_work spec_clean;
	atomic64_t spec_busy, spec_unavail;

	/*
	 * The deadman (illumos dts_alive, dts_laststatus, dts_deadman). The
	 * timer keeps moving deadline; probe context compares it with jiffies
	 * (one load, where illumos reads the clock).
	 */
	unsigned long deadline;		/* jiffies: killed past it */
	atomic64_t laststatus;		/* ns: the consumer's last STATUS */
	struct hrtimer deadman;		/* from GO to destroy */
	bool deadman_armed;

	struct list_head pins;		/* struct dtrace_pin */
};

/* Is cpu traced by the state? All are, unless D's option cpu names one. */
static inline bool dtrace_state_traces_cpu(const struct dtrace_state *state, int cpu)
{
	return !(state->opts.dtph_flags & DTRACE_PROGF_CPU) || state->opts.dtph_cpu == (u64)cpu;
}

extern struct list_head dtrace_states;
extern unsigned int dtrace_nopen;

/* buffer.c's reserve: the switch policy with room inline, no call (probe context). */
static __always_inline u8 *dtrace_buffer_reserve(struct dtrace_state *state,
						 struct dtrace_buffer *buf, u64 size, bool is_end)
{
	if (likely(!state->bufpolicy && size <= buf->size - buf->offset))
		return buf->data + buf->offset;
	return dtrace_buffer_reserve_slow(state, buf, size, is_end);
}

struct dtrace_state *dtrace_state_create(void);
void dtrace_state_destroy(struct dtrace_state *state);
int dtrace_state_go(struct dtrace_state *state, u32 *cpu);
int dtrace_state_stop(struct dtrace_state *state, u32 *cpu);
void dtrace_state_status(struct dtrace_state *state, dtrace_status_t *st);

/* Deadman tunables (module parameters, ms; see state.c). */
extern unsigned long dtrace_deadman_interval_ms, dtrace_deadman_timeout_ms,
	dtrace_deadman_user_ms;

static inline u64 dtrace_ms_to_ns(unsigned long ms)
{
	return min_t(u64, ms, U32_MAX) * NSEC_PER_MSEC;
}

/* ---- spec.c --------------------------------------------------------- */

/* Speculation states (illumos dtrace_speculation_state_t). */
#define DTRACESPEC_INACTIVE		0
#define DTRACESPEC_ACTIVE		1
#define DTRACESPEC_ACTIVEONE		2
#define DTRACESPEC_ACTIVEMANY		3
#define DTRACESPEC_COMMITTING		4
#define DTRACESPEC_COMMITTINGMANY	5
#define DTRACESPEC_DISCARDING		6

/* One speculation's buffer on one CPU: written on that CPU only. */
struct dtrace_specbuf {
	u8 *data;			/* NULL: the state does not speculate */
	u64 size;
	u64 offset;
	u64 drops;			/* firings that did not fit, this time */
	u64 committed_drops;		/* of committed speculations (STATUS) */
};

struct dtrace_spec {
	u32 state;			/* DTRACESPEC_*, cmpxchg */
	bool cleaning;			/* the cleaner's mark */
	struct dtrace_specbuf *bufs;	/* [nr_cpu_ids] */
};

/* GO: allocate (ENOMEM frees what it made), then start the cleaner. */
int dtrace_spec_alloc(struct dtrace_state *state);
void dtrace_spec_start(struct dtrace_state *state);
/* Close: stop the cleaner first; free once no probe context can see us. */
void dtrace_spec_stop(struct dtrace_state *state);
void dtrace_spec_free(struct dtrace_state *state);
void dtrace_spec_status(struct dtrace_state *state, dtrace_status_t *st);
/* Probe context; which is 0 .. nspec (the caller faults above that). */
u64 dtrace_speculation(struct dtrace_state *state);
uint64_t dtrace_env_speculation(void *env);	/* dif_env_ops_t.speculation */
struct dtrace_specbuf *dtrace_speculation_buffer(struct dtrace_state *state, int cpu, u64 which);
void dtrace_speculation_commit(struct dtrace_state *state, int cpu, u64 which);
/* A speculated firing of size bytes into its buffer (no room: a drop). */
void dtrace_speculation_store(struct dtrace_specbuf *buf, const u8 *rec, u32 size);
void dtrace_speculation_discard(struct dtrace_state *state, int cpu, u64 which);

/* ---- probe.c -------------------------------------------------------- */

/* Per-CPU probe-context bookkeeping. */
struct dtrace_cpu {
	int nest;			/* inside dtrace_probe() */
	u64 firing;			/* firings started on this CPU */
	u64 nested;			/* firings dropped by the nesting guard */
	u64 chillmark;			/* chill(): illumos cpu_dtrace_chillmark */
	u64 chilled;			/* ns chilled since chillmark */
	unsigned long stack_start;	/* dtrace_probe_at(): the first kernel frame */
};

u64 dtrace_nested_drops(void);
/* Probe context: the firing's dtrace_probe_at() start frame, or 0. */
unsigned long dtrace_stack_start(void);
/* Fire probe with args[] (DTRACE_MAXARGS); interrupts off, guard held. */
void dtrace_probe_fire(struct dtrace_probe *probe, const u64 *args,
		       struct dtrace_state *only);
/* From ioctl context: fire id on this CPU for one state only (BEGIN/END); the CPU. */
int dtrace_probe_state(struct dtrace_state *state, dtrace_id_t id);

/* ---- dif.c: the VM's environment ------------------------------------ */

/*
 * What one probe firing's ECBs and their DIF see (the env pointer; illumos
 * dtrace_mstate_t). The timestamp is read once per firing, when first
 * needed (a record's header, D's timestamp): dtrace_mstate_timestamp().
 */
struct dtrace_mstate {
	const struct dtrace_probe *probe;
	const struct dtrace_ecb *ecb;
	const u64 *args;		/* DTRACE_MAXARGS */
	u64 timestamp;			/* 0: not read yet */
	int cpu;
};

/* Probe context: the firing's timestamp (ktime_get_mono_fast_ns), read once. */
static inline u64 dtrace_mstate_timestamp(struct dtrace_mstate *ms)
{
	if (unlikely(!ms->timestamp))
		ms->timestamp = ktime_get_mono_fast_ns();
	return ms->timestamp;
}

extern const dif_env_ops_t dtrace_env_ops;
extern const dif_limits_t dtrace_dif_limits;
/* Read size bytes at a kernel or DTrace-owned address; false if bad. */
bool dtrace_read(u64 addr, void *dst, size_t size);

/* ---- stack.c: probe context ------------------------------------------ */

/* User pcs (the current pc first) into pcs, at most max; NULL: count. */
u32 dtrace_getustack(u64 *pcs, u32 max);
/* Kernel pcs where the probe fired (past dtrace.ko and aframes); all found. */
u32 dtrace_getpcstack(u64 *pcs, u32 max, int aframes);

/* ---- dtrace_provider.c ---------------------------------------------- */

extern dtrace_id_t dtrace_probeid_begin, dtrace_probeid_end, dtrace_probeid_error;
int dtrace_provider_init(void);
void dtrace_provider_exit(void);

/* ---- dev.c ---------------------------------------------------------- */

extern bool dtrace_attached;

#endif /* _DTRACE_IMPL_H */
