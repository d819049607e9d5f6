/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * uapi/dtrace/ioctl.h - the /dev/dtrace ioctl ABI between a consumer
 * (libdtrace's kmod engine) and the kernel core (dtrace.ko).
 *
 * Map of this file
 *   1. Versions, names, limits
 *   2. Stability attributes and privileges (what `dtrace -lv` prints)
 *   3. The ioctls, each a numbered contract (Overview / Argument /
 *      Return value / Errors)
 *   4. The program blob that DTRACEIOC_ENABLE takes (ECB descriptions and
 *      DIF objects, flat, size-prefixed, versioned)
 *   5. Aggregation snapshot records
 *
 * One open of /dev/dtrace is one consumer state (illumos dtrace_state_t):
 *
 *   open ─► CONF, PROVIDER, PROBES/PROBEMATCH, PROBEARG   (any time)
 *        ─► ENABLE [ENABLE ...] ─► EPROBE                 (state INACTIVE)
 *        ─► GO  (BEGIN fires; buffers live)               (state ACTIVE)
 *        ─► { BUFSNAP(cpu), AGGSNAP(cpu), STATUS }*       (the consumer loop)
 *        ─► STOP (END fires)  ─► BUFSNAP/AGGSNAP to drain (state STOPPED)
 *   close ─► every ECB of the state is disabled and freed; provider modules
 *            are released. A dying consumer is a close.
 *
 * Every struct here has a fixed layout: explicit padding, 8-byte aligned
 * 64-bit fields, no pointers (user addresses travel as uint64_t), so the
 * layout is the same for every ABI of one architecture. Reserved fields
 * (named *_pad or *_reserved) must be zero on input; the kernel rejects
 * (EINVAL) a nonzero one so that they can be given a meaning later.
 *
 * Errors are negative errno values from ioctl(2) (errno in userspace).
 * The closed list per ioctl is in its contract; every ioctl may also
 * return EFAULT (a bad user address) and ENOTTY (an unknown ioctl).
 */
#ifndef _UAPI_DTRACE_IOCTL_H
#define _UAPI_DTRACE_IOCTL_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/ioctl.h>
#else
#include <stdint.h>
#include <sys/ioctl.h>
#endif

#include "dif.h"

/* ===================================================================== */
/* 1. Versions, names, limits                                             */
/* ===================================================================== */

/*
 * The ABI version of this header. DTRACEIOC_CONF returns the kernel's;
 * a consumer refuses a kernel whose version differs from the one it was
 * built with. Additions that do not change an existing layout (a new
 * ioctl, a new section type) do not bump it; fields appended to a struct
 * do (its size is in the ioctl number, or checked as dtph_hdrsize).
 *   2  speculations: dtrace_prog_hdr_t's nspec, specsize, cleanrate;
 *      dtrace_status_t's failed-speculation counters
 */
#define DTRACE_IOCTL_VERSION	2

#define DTRACE_DEVICE_NAME	"dtrace"	/* /dev/dtrace, a misc device */

#define DTRACE_PROVNAMELEN	64	/* provider name, NUL included */
#define DTRACE_MODNAMELEN	64	/* probe module */
#define DTRACE_FUNCNAMELEN	192	/* probe function */
#define DTRACE_NAMELEN		64	/* probe name */
#define DTRACE_ARGTYPELEN	128	/* argument type name */
#define DTRACE_ERRMSGLEN	128	/* DTRACEIOC_ENABLE's reason */

#define DTRACE_IDNONE		0	/* no probe / provider / EPID */
#define DTRACE_ARGNONE		(-1)	/* dtrace_argdesc_t: no such argument */
#define DTRACE_CPUALL		(-1)	/* "every CPU" where a CPU is asked */

/* ===================================================================== */
/* 2. Stability attributes and privileges                                 */
/* ===================================================================== */

/* Stability levels (illumos dtrace_stability_t), lowest first. */
#define DTRACE_STABILITY_INTERNAL	0
#define DTRACE_STABILITY_PRIVATE	1
#define DTRACE_STABILITY_OBSOLETE	2
#define DTRACE_STABILITY_EXTERNAL	3
#define DTRACE_STABILITY_UNSTABLE	4
#define DTRACE_STABILITY_EVOLVING	5
#define DTRACE_STABILITY_STABLE		6
#define DTRACE_STABILITY_STANDARD	7
#define DTRACE_STABILITY_MAX		7

/* Dependency classes (illumos dtrace_class_t), lowest first. */
#define DTRACE_CLASS_UNKNOWN		0
#define DTRACE_CLASS_CPU		1
#define DTRACE_CLASS_PLATFORM		2
#define DTRACE_CLASS_GROUP		3
#define DTRACE_CLASS_ISA		4
#define DTRACE_CLASS_COMMON		5
#define DTRACE_CLASS_MAX		5

typedef struct dtrace_attribute {
	uint8_t dtat_name;	/* name stability (DTRACE_STABILITY_*) */
	uint8_t dtat_data;	/* data stability (DTRACE_STABILITY_*) */
	uint8_t dtat_class;	/* dependency class (DTRACE_CLASS_*) */
	uint8_t dtat_pad;	/* zero */
} dtrace_attribute_t;

/* A provider's attributes (illumos dtrace_pattr_t). */
typedef struct dtrace_pattr {
	dtrace_attribute_t dtpa_provider;
	dtrace_attribute_t dtpa_mod;
	dtrace_attribute_t dtpa_func;
	dtrace_attribute_t dtpa_name;
	dtrace_attribute_t dtpa_args;
} dtrace_pattr_t;

/*
 * Provider privilege (illumos DTRACE_PRIV_*): who may enable the
 * provider's probes. Only root opens /dev/dtrace today, so these are
 * reported (DTRACEIOC_PROVIDER), not yet enforced.
 */
#define DTRACE_PRIV_NONE	0x0000
#define DTRACE_PRIV_KERNEL	0x0001
#define DTRACE_PRIV_USER	0x0002
#define DTRACE_PRIV_PROC	0x0004
#define DTRACE_PRIV_OWNER	0x0008
#define DTRACE_PRIV_ALL		0x000f

/* ===================================================================== */
/* 3. The ioctls                                                          */
/* ===================================================================== */

#define DTRACE_IOC_MAGIC	0xd7

/*
 * 3.1 DTRACEIOC_CONF — the kernel's configuration.
 *   Overview: what the consumer must agree with before anything else:
 *     the ABI version, the DIF version and register file, the limits the
 *     kernel's validator applies, and how many CPU slots the per-CPU
 *     ioctls take (CPU numbers are 0 .. dtc_ncpus - 1; some may be
 *     offline or absent).
 *   Argument: dtrace_conf_t, written by the kernel.
 *   Return value: 0.
 */
typedef struct dtrace_conf {
	uint32_t dtc_abi_version;	/* DTRACE_IOCTL_VERSION */
	uint32_t dtc_difversion;	/* DIF_VERSION */
	uint32_t dtc_difintregs;	/* DIF_DIR_NREGS */
	uint32_t dtc_diftupregs;	/* DIF_DTR_NREGS */
	uint32_t dtc_ncpus;		/* CPU slots (nr_cpu_ids) */
	uint32_t dtc_max_difo_len;	/* instructions per DIF object */
	uint32_t dtc_max_prog_size;	/* bytes of an ENABLE blob */
	uint32_t dtc_max_ecbs;		/* ECB sections per ENABLE */
	uint64_t dtc_max_bufsize;	/* principal/aggregation buffer per CPU */
	uint64_t dtc_max_dynvarsize;	/* dynamic variable space */
	uint32_t dtc_nprobes;		/* probes registered right now */
	uint32_t dtc_nproviders;	/* providers registered right now */
} dtrace_conf_t;

/*
 * 3.2 DTRACEIOC_PROVIDER — a provider's description.
 *   Overview: looks a provider up by name, or (dtvd_name empty) returns
 *     the first provider whose id is >= dtvd_id, so that a loop starting
 *     at id 1 and continuing at the returned id + 1 lists every provider.
 *   Argument: dtrace_providerdesc_t; in: dtvd_name or dtvd_id; out: all.
 *   Return value: 0.
 *   Errors: ESRCH no such provider (or no more), EINVAL name not
 *     NUL-terminated.
 */
typedef struct dtrace_providerdesc {
	uint32_t dtvd_id;			/* provider id (>= 1) */
	uint32_t dtvd_priv;			/* DTRACE_PRIV_* */
	char dtvd_name[DTRACE_PROVNAMELEN];
	dtrace_pattr_t dtvd_attr;
	uint32_t dtvd_nprobes;			/* probes it has created */
	uint32_t dtvd_pad;
} dtrace_providerdesc_t;

/*
 * 3.3 DTRACEIOC_PROBES / DTRACEIOC_PROBEMATCH — list probes.
 *   Overview: returns the first probe whose id is >= dtpd_id (PROBES), or
 *     the first such probe matching the description (PROBEMATCH: each
 *     non-empty field is a glob with * ? [...] and \ escapes; an empty
 *     field matches anything). Loop with dtpd_id = returned id + 1.
 *     PROBEMATCH first asks the providers to create probes for the
 *     description (their provide() hook: profile-997 comes to exist when
 *     asked for).
 *   Argument: dtrace_probedesc_t; in: dtpd_id (0 counts as 1) and, for
 *     PROBEMATCH, the fields; out: the probe.
 *   Return value: 0.
 *   Errors: ESRCH no (more) probe, EINVAL a field not NUL-terminated.
 */
typedef struct dtrace_probedesc {
	uint32_t dtpd_id;			/* probe id */
	uint32_t dtpd_provid;			/* out: provider id */
	char dtpd_provider[DTRACE_PROVNAMELEN];
	char dtpd_mod[DTRACE_MODNAMELEN];
	char dtpd_func[DTRACE_FUNCNAMELEN];
	char dtpd_name[DTRACE_NAMELEN];
} dtrace_probedesc_t;

/*
 * 3.4 DTRACEIOC_PROBEARG — one argument's types.
 *   Overview: asks the probe's provider (getargdesc hook) for argument
 *     dtargd_ndx. Providers whose types live in their userspace plugin
 *     have no hook: the answer is then dtargd_mapping = DTRACE_ARGNONE.
 *   Argument: dtrace_argdesc_t; in: dtargd_id, dtargd_ndx; out: the rest.
 *   Return value: 0 (also for an argument that does not exist:
 *     dtargd_mapping == DTRACE_ARGNONE).
 *   Errors: ESRCH no such probe.
 */
typedef struct dtrace_argdesc {
	uint32_t dtargd_id;			/* probe id */
	uint32_t dtargd_ndx;			/* argument number */
	int32_t dtargd_mapping;			/* args[ndx] comes from argN, or ARGNONE */
	uint32_t dtargd_pad;
	char dtargd_native[DTRACE_ARGTYPELEN];	/* native type name */
	char dtargd_xlate[DTRACE_ARGTYPELEN];	/* translated type name, or "" */
} dtrace_argdesc_t;

/*
 * 3.5 DTRACEIOC_ENABLE — enable a program.
 *   Overview: copies in the program blob (section 4) at dten_prog,
 *     dten_size bytes, validates all of it (header, every section, every
 *     DIF object with the kernel's own validator, every action's record
 *     against its ECB's size), then for each ECB section matches its
 *     probe description against the probes (asking providers to provide
 *     first, as PROBEMATCH does) and creates one enabled probe (EPID) per
 *     matching probe. Nothing is enabled unless everything is valid and
 *     every provider accepted its enable: on an error no trace of the call
 *     remains. May be called several times before GO; the options in the
 *     header of the first call are the state's (later calls must carry
 *     the same options or get EINVAL).
 *   Argument: dtrace_enable_t; in: dten_prog, dten_size; out: dten_nprobes
 *     (EPIDs created), dten_first_epid (they are dten_first_epid ...
 *     dten_first_epid + dten_nprobes - 1, in ECB-section order then
 *     probe-id order), and on EINVAL dten_errmsg and dten_erroff (the
 *     byte offset in the blob where the problem is).
 *   Return value: 0.
 *   Errors: EINVAL invalid blob (reason in dten_errmsg), E2BIG blob or a
 *     table over the limits of DTRACEIOC_CONF, EOPNOTSUPP an action this
 *     kernel does not implement (reason in dten_errmsg), EPERM a
 *     destructive action (system()) without DTRACE_PROGF_DESTRUCTIVE
 *     (reason in dten_errmsg), EBUSY the state
 *     was already started (GO), ENOMEM, ESRCH a provider is defunct
 *     (invalidated), or the error a provider's enable returned.
 *   Caller's context: a probe description matching no probe is not an
 *     error (dten_nprobes counts what matched); the consumer decides.
 */
typedef struct dtrace_enable {
	uint64_t dten_prog;			/* in: user address of the blob */
	uint32_t dten_size;			/* in: its size in bytes */
	uint32_t dten_nprobes;			/* out: EPIDs created */
	uint32_t dten_first_epid;		/* out: the first of them */
	uint32_t dten_erroff;			/* out: EINVAL: blob offset */
	char dten_errmsg[DTRACE_ERRMSGLEN];	/* out: EINVAL/EOPNOTSUPP: why */
} dtrace_enable_t;

/*
 * 3.6 DTRACEIOC_EPROBE — what an EPID is.
 *   Overview: the enabled probe's probe id, the consumer's cookie of the
 *     ECB section that created it (dtpe_ecb, from dtrace_prog_ecb_t) and
 *     the size of each firing it writes (one EPID always writes the same
 *     layout: this is all the consumer needs to decode the stream).
 *   Argument: dtrace_eprobedesc_t; in: dtpe_epid; out: the rest.
 *   Return value: 0.
 *   Errors: ESRCH no such EPID in this state.
 */
typedef struct dtrace_eprobedesc {
	uint32_t dtpe_epid;
	uint32_t dtpe_probeid;
	uint32_t dtpe_ecb;			/* dtrace_prog_ecb_t.dtpe_cookie */
	uint32_t dtpe_size;			/* bytes per firing, header included */
} dtrace_eprobedesc_t;

/*
 * 3.7 DTRACEIOC_GO — start tracing.
 *   Overview: allocates every CPU's buffers, fires dtrace:::BEGIN on the
 *     calling CPU (its records land in that CPU's principal buffer), then
 *     makes the state active: its ECBs fire from now on.
 *   Argument: uint32_t, out: the CPU BEGIN fired on.
 *   Return value: 0.
 *   Errors: EBUSY already started, ENOMEM buffers could not be allocated
 *     (nothing stays allocated), EINVAL nothing enabled yet, or the CPU
 *     of DTRACE_PROGF_CPU is not online.
 */

/*
 * 3.8 DTRACEIOC_STOP — stop tracing.
 *   Overview: stops the state's ECBs (except END's), fires dtrace:::END
 *     on the calling CPU, then waits until no CPU is in probe context for
 *     this state. Buffers stay readable (BUFSNAP/AGGSNAP drain them).
 *   Argument: uint32_t, out: the CPU END fired on.
 *   Return value: 0.
 *   Errors: EINVAL not started, EALREADY already stopped.
 */

/*
 * 3.9 DTRACEIOC_STATUS — counters since the state was created.
 *   Overview: the drop and error counters (illumos dtrace_status_t) and
 *     whether exit() was called (dtst_exiting: the consumer should drain
 *     and STOP). Counters are totals, not deltas; per-CPU principal and
 *     aggregation drops come with each BUFSNAP/AGGSNAP instead.
 *   Argument: dtrace_status_t, written by the kernel.
 *   Return value: 0.
 */
typedef struct dtrace_status {
	uint64_t dtst_dyndrops;		/* dynamic variable drops */
	uint64_t dtst_dyndrops_dirty;	/* of those, with dirty chunks waiting */
	uint64_t dtst_specdrops;	/* speculative drops: firings that did not
					 * fit a speculative buffer, counted
					 * when it is committed */
	uint64_t dtst_errors;		/* faults (ERROR firings) */
	uint64_t dtst_dblerrors;	/* faults inside ERROR clauses */
	uint64_t dtst_nested;		/* firings dropped: probe context nested */
	uint32_t dtst_activity;		/* DTRACE_ACTIVITY_* */
	uint32_t dtst_exiting;		/* exit() was called */
	uint32_t dtst_exitcpu;		/* the CPU exit() ran on */
	uint32_t dtst_pad;
	/* Appended in version 2: speculation() returned 0 because ... */
	uint64_t dtst_specdrops_busy;	/* ... the free ones are still being
					 * committed or discarded on some CPU */
	uint64_t dtst_specdrops_unavail; /* ... none was free */
	/* Appended in version 2: bufpolicy=fill (DTRACE_PROGF_FILL). */
	uint32_t dtst_filled;		/* CPUs whose principal buffer filled */
	uint32_t dtst_pad2;
} dtrace_status_t;

#define DTRACE_ACTIVITY_INACTIVE	0	/* enabled, not started */
#define DTRACE_ACTIVITY_WARMUP		1	/* GO: only BEGIN fires */
#define DTRACE_ACTIVITY_ACTIVE		2	/* tracing */
#define DTRACE_ACTIVITY_DRAINING	3	/* exit() or STOP: only END fires */
#define DTRACE_ACTIVITY_STOPPED		4	/* after STOP */

/*
 * 3.10 DTRACEIOC_BUFSNAP / DTRACEIOC_AGGSNAP — take one CPU's buffer.
 *   Overview: switches the CPU's active and inactive buffer (a cross-call
 *     to that CPU, which swaps them with interrupts off, so the switch is
 *     atomic with respect to probe context there), then copies the
 *     now-inactive one out and empties it. Each call therefore returns
 *     what that CPU wrote since the previous call: principal buffers hold
 *     firings (dtrace_rechdr_t + records, each firing 8-aligned, see
 *     uapi/dtrace/actions.h), aggregation buffers hold
 *     dtrace_aggrec_t records (section 5) that are deltas to merge.
 *     dtbd_drops counts the firings (BUFSNAP) or aggregation keys
 *     (AGGSNAP) dropped on that CPU since the previous call because the
 *     buffer was full.
 *   Argument: dtrace_bufdesc_t; in: dtbd_cpu, dtbd_data (user address),
 *     dtbd_size (its capacity; at least the state's bufsize, or aggsize
 *     for AGGSNAP, which DTRACEIOC_STATUS does not report: the consumer
 *     chose them); out: dtbd_size (bytes written), dtbd_drops,
 *     dtbd_errors (faults on that CPU since the previous call).
 *   Return value: 0 (dtbd_size 0: nothing new).
 *   Errors: EINVAL bad CPU or not started, ENOSPC dtbd_size below the
 *     buffer size (nothing is switched).
 */
typedef struct dtrace_bufdesc {
	uint64_t dtbd_data;		/* in: user address */
	uint64_t dtbd_size;		/* in: capacity; out: bytes */
	uint32_t dtbd_cpu;		/* in: CPU */
	uint32_t dtbd_pad;
	uint64_t dtbd_drops;		/* out */
	uint64_t dtbd_errors;		/* out */
	uint64_t dtbd_timestamp;	/* out: when the switch happened (ns) */
} dtrace_bufdesc_t;

#define DTRACEIOC_CONF		_IOR(DTRACE_IOC_MAGIC, 1, dtrace_conf_t)
#define DTRACEIOC_PROVIDER	_IOWR(DTRACE_IOC_MAGIC, 2, dtrace_providerdesc_t)
#define DTRACEIOC_PROBES	_IOWR(DTRACE_IOC_MAGIC, 3, dtrace_probedesc_t)
#define DTRACEIOC_PROBEMATCH	_IOWR(DTRACE_IOC_MAGIC, 4, dtrace_probedesc_t)
#define DTRACEIOC_PROBEARG	_IOWR(DTRACE_IOC_MAGIC, 5, dtrace_argdesc_t)
#define DTRACEIOC_ENABLE	_IOWR(DTRACE_IOC_MAGIC, 6, dtrace_enable_t)
#define DTRACEIOC_EPROBE	_IOWR(DTRACE_IOC_MAGIC, 7, dtrace_eprobedesc_t)
#define DTRACEIOC_GO		_IOR(DTRACE_IOC_MAGIC, 8, uint32_t)
#define DTRACEIOC_STOP		_IOR(DTRACE_IOC_MAGIC, 9, uint32_t)
#define DTRACEIOC_STATUS	_IOR(DTRACE_IOC_MAGIC, 10, dtrace_status_t)
#define DTRACEIOC_BUFSNAP	_IOWR(DTRACE_IOC_MAGIC, 11, dtrace_bufdesc_t)
#define DTRACEIOC_AGGSNAP	_IOWR(DTRACE_IOC_MAGIC, 12, dtrace_bufdesc_t)

/* ===================================================================== */
/* 4. The program blob (DTRACEIOC_ENABLE)                                 */
/* ===================================================================== */

/*
 * The compiled program (docs/program.md) as the kernel takes it: one
 * contiguous, 8-aligned blob, every size and offset in it checked by the
 * kernel before anything is used:
 *
 *   dtrace_prog_hdr_t    magic, version, sizes, the options
 *   section              dtrace_prog_sec_t { type, size } + payload,
 *   section              size a multiple of 8, header included; the
 *   ...                  sections tile the rest of the blob exactly
 *
 * Section payloads:
 *   DIFO  dtrace_prog_difo_t, then (each table 8-aligned, in this order)
 *         text[len] (dif_instr_t), inttab[intlen] (uint64_t),
 *         strtab[strlen] (bytes; the last one NUL when strlen > 0),
 *         vartab[varlen] (dtrace_difv_t). DIF objects are numbered 1, 2, ...
 *         in blob order; ECBs and actions name them by that number.
 *   AGG   dtrace_prog_agg_t: one aggregation (@name), by its id.
 *   ECB   dtrace_prog_ecb_t then dtrace_prog_act_t[dtpe_nacts]: one D
 *         clause for one probe description.
 *
 * Validation (EINVAL unless said otherwise, with dten_errmsg/dten_erroff):
 *   magic, version, hdrsize, size == dten_size, reserved fields zero;
 *   options within DTRACEIOC_CONF's limits (E2BIG); each DIF object passes
 *   the DIF validator (illumos dtrace_difo_validate: registers, tables,
 *   forward branches, known variables and subroutines, final ret) and a
 *   user variable used by several DIF objects has the same kind, scope and
 *   type in each; each action names existing DIF objects and aggregations,
 *   and its record lies inside its ECB's firing (or its aggregation key);
 *   each ECB's firing size (rounded up to a multiple of 8 by the kernel,
 *   which DTRACEIOC_EPROBE reports) is 0 (no action stores data: the ECB
 *   writes no record, illumos dte_size 0) or at least the record header,
 *   and at most bufsize; probe descriptions are NUL-terminated.
 */
#define DTRACE_PROG_MAGIC	0x50525444u	/* "DTRP" little-endian */
#define DTRACE_PROG_VERSION	1

typedef struct dtrace_prog_hdr {
	uint32_t dtph_magic;		/* DTRACE_PROG_MAGIC */
	uint16_t dtph_version;		/* DTRACE_PROG_VERSION */
	uint16_t dtph_hdrsize;		/* sizeof (dtrace_prog_hdr_t) */
	uint32_t dtph_size;		/* the whole blob, == dten_size */
	uint32_t dtph_nsecs;		/* sections that follow */
	/* Options (D's bufsize, aggsize, strsize, dynvarsize ...). */
	uint64_t dtph_bufsize;		/* principal buffer per CPU (bytes) */
	uint64_t dtph_aggsize;		/* aggregation buffer per CPU (0: none) */
	uint64_t dtph_dynvarsize;	/* dynamic variable space (0: none) */
	uint64_t dtph_scratchsize;	/* per-CPU scratch (0: the default) */
	uint32_t dtph_strsize;		/* string size, NUL included */
	uint32_t dtph_flags;		/* DTRACE_PROGF_* */
	uint64_t dtph_dynchunksize;	/* bytes per dynamic variable (0: the
					 * kernel sizes it for the largest
					 * key and value the DIF can store) */
	uint64_t dtph_cpu;		/* DTRACE_PROGF_CPU: the one CPU traced;
					 * else zero */
	uint64_t dtph_reserved[2];	/* zero */
	/* Appended in version 2: speculations (illumos nspec, specsize,
	 * cleanrate). Each CPU has nspec buffers of specsize bytes when some
	 * ECB speculates; committed or discarded speculations whose data is
	 * on other CPUs are cleaned every cleanrate ns (0: 101 Hz; clamped to
	 * 200 us .. 60 s). nspec 0: speculation() always returns 0. */
	uint32_t dtph_nspec;		/* at most DTRACE_MAX_NSPEC */
	uint32_t dtph_spec_pad;		/* zero */
	uint64_t dtph_specsize;		/* nspec * specsize <= DTRACE_MAX_SPECMEM */
	uint64_t dtph_cleanrate;	/* ns */
} dtrace_prog_hdr_t;

#define DTRACE_MAX_NSPEC	4096
#define DTRACE_MAX_SPECMEM	(256ull << 20)	/* per CPU */

/*
 * -w (or #pragma D option destructive): the program may contain
 * destructive actions. dtrace.ko refuses system() without it and every
 * other destructive action (stop, raise, panic, ...) in any case.
 */
#define DTRACE_PROGF_DESTRUCTIVE	0x1

typedef struct dtrace_prog_sec {
	uint32_t dtps_type;		/* DTRACE_PSEC_* */
	uint32_t dtps_size;		/* bytes, this header included, multiple of 8 */
} dtrace_prog_sec_t;

#define DTRACE_PSEC_DIFO	1
#define DTRACE_PSEC_AGG		2
#define DTRACE_PSEC_ECB		3

typedef struct dtrace_prog_difo {
	uint32_t dtpd_len;		/* instructions */
	uint32_t dtpd_intlen;		/* inttab entries */
	uint32_t dtpd_strlen;		/* strtab bytes */
	uint32_t dtpd_varlen;		/* vartab entries */
	dtrace_diftype_t dtpd_rtype;	/* return type */
} dtrace_prog_difo_t;

typedef struct dtrace_prog_agg {
	uint32_t dtpa_id;		/* aggregation id, >= 1, unique */
	uint16_t dtpa_func;		/* DTRACEAGG_* */
	uint16_t dtpa_nparams;		/* entries of dtpa_params used */
	uint32_t dtpa_keysize;		/* bytes of key */
	uint32_t dtpa_nwords;		/* int64_t words of value (actions.h) */
	int64_t dtpa_params[4];		/* lquantize: base, limit, step;
					 * llquantize: factor, low, high, nsteps */
} dtrace_prog_agg_t;

typedef struct dtrace_prog_ecb {
	char dtpe_provider[DTRACE_PROVNAMELEN];	/* globs; "" matches all */
	char dtpe_mod[DTRACE_MODNAMELEN];
	char dtpe_func[DTRACE_FUNCNAMELEN];
	char dtpe_name[DTRACE_NAMELEN];
	uint32_t dtpe_pred;		/* predicate DIF object, 0: none */
	uint32_t dtpe_size;		/* firing size, header included (the
					 * kernel rounds it up to 8); 0: the
					 * ECB records nothing */
	uint32_t dtpe_nacts;		/* dtrace_prog_act_t that follow */
	uint32_t dtpe_cookie;		/* the consumer's (DTRACEIOC_EPROBE) */
} dtrace_prog_ecb_t;

/*
 * One action record (illumos dtrace_actdesc_t: one per evaluated value).
 * A D action with n arguments is n records sharing dtpa_kind, the first
 * with DTRACE_PACT_FIRST; an aggregating action is its key records
 * (DTRACE_PROLE_KEY), then its value and optional increment. Action
 * numbers in ERROR's arg2 count these records from 1 (0 is the
 * predicate), as illumos numbers its actions.
 *
 * Per role:
 *   ARG   run dtpa_difo (0: nothing to run); for the first record of
 *         exit() the value is the exit status. With dtpa_size > 0 the
 *         value is written at dtpa_offset of the firing as dtpa_vkind says.
 *         speculate(), commit(), discard() (DTRACEACT_SPECULATIVE kinds,
 *         one FIRST INT record with a DIF object): the value is the
 *         speculation id, 0 none, above nspec an illegal operation (a
 *         fault). After speculate() the firing goes to this CPU's buffer
 *         of that speculation instead (not active: it is dropped);
 *         commit() commits the firing, then copies that speculation's
 *         data on this CPU after it (the other CPUs' follow within
 *         cleanrate); system() is a record (the consumer runs it).
 *   KEY   run dtpa_difo; write the value at dtpa_offset of the key of
 *         aggregation dtpa_aggid, as dtpa_vkind says.
 *   VAL   run dtpa_difo (0: value 0, e.g. count()), fold into the
 *         aggregation entry of the key built so far (dtpa_aggid).
 *   INCR  run dtpa_difo: the increment (weight) of the quantizations;
 *         must follow the VAL record of the same aggregation.
 */
typedef struct dtrace_prog_act {
	uint16_t dtpa_kind;		/* DTRACEACT_* / DTRACEAGG_* */
	uint8_t dtpa_role;		/* DTRACE_PROLE_* */
	uint8_t dtpa_vkind;		/* DTRACE_PV_* */
	uint32_t dtpa_difo;		/* DIF object, 0: none */
	uint32_t dtpa_offset;		/* in the firing, or in the key */
	uint32_t dtpa_size;		/* bytes written, 0: none */
	uint32_t dtpa_aggid;		/* KEY/VAL/INCR: the aggregation */
	uint16_t dtpa_nframes;		/* DTRACE_PV_STACK: frames */
	uint16_t dtpa_flags;		/* DTRACE_PACT_* */
} dtrace_prog_act_t;

#define DTRACE_PROLE_ARG	0
#define DTRACE_PROLE_KEY	1
#define DTRACE_PROLE_VAL	2
#define DTRACE_PROLE_INCR	3

#define DTRACE_PACT_FIRST	0x1	/* first record of its D action */

/*
 * How a value is written (dtpa_size bytes at dtpa_offset):
 *   INT     the low dtpa_size (1, 2, 4, 8) bytes, native endianness
 *   STRING  the string the value points to, at most dtpa_size - 1 bytes
 *           then NUL padding (a NULL pointer writes zeros)
 *   BYTES   dtpa_size bytes at the address the value holds
 *   STACK   the kernel stack: up to dtpa_nframes 64-bit pcs, then zeros
 *           (dtpa_size == 8 * dtpa_nframes); the value is ignored
 *   PIDADDR the current process id, then the 64-bit value (16 bytes):
 *           usym(), umod(), uaddr()
 * A bad address in STRING or BYTES is a fault (BADADDR), like a DIF load.
 */
#define DTRACE_PV_INT		0
#define DTRACE_PV_STRING	1
#define DTRACE_PV_BYTES		2
#define DTRACE_PV_STACK		3
#define DTRACE_PV_PIDADDR	4

/* ===================================================================== */
/* 5. Aggregation snapshot records (DTRACEIOC_AGGSNAP)                    */
/* ===================================================================== */

/*
 * The data DTRACEIOC_AGGSNAP copies out is a sequence of
 *
 *   dtrace_aggrec_t  aggid, key size, words
 *   key bytes        dtag_keysize, zero-padded to a multiple of 8
 *   int64_t words    dtag_nwords values (layout per function: actions.h)
 *
 * one per (aggregation, key) that CPU updated since the previous snapshot.
 * The values are that CPU's deltas: min/max as values seen, the others
 * as sums; the consumer merges CPUs and snapshots (illumos
 * dt_aggregate.c).
 */
typedef struct dtrace_aggrec {
	uint32_t dtag_aggid;
	uint32_t dtag_keysize;
	uint32_t dtag_nwords;
	uint32_t dtag_link;	/* kernel-private; ignore */
} dtrace_aggrec_t;

/*
 * The deadman (illumos DTRACE_ACTIVITY_KILLED): DTRACEIOC_STATUS reports
 * dtst_activity == DTRACE_ACTIVITY_KILLED once probe context found the
 * consumer unresponsive: it had not asked for STATUS for a while
 * (dtrace.ko's deadman_user_ms, 30 s) and the deadman timer, which runs
 * only while it does, was more than deadman_timeout_ms (10 s) behind; or
 * the timer itself could not run for that long. From then on none of the
 * state's ECBs runs (END neither: STOP returns EINVAL); the consumer
 * reports "Abort due to systemic unresponsiveness". Not with
 * DTRACE_PROGF_DESTRUCTIVE.
 */
#define DTRACE_ACTIVITY_KILLED		5

/*
 * Principal buffer policies (D's bufpolicy; dtph_flags, at most one;
 * neither is "switch"). fill: a CPU's buffer that is full stops recording
 * (space for END's firings kept) and STATUS counts it in dtst_filled;
 * ring: the newest firings overwrite the oldest. Either way the consumer
 * reads the buffers once, after STOP; BUFSNAP returns the firings oldest
 * first.
 */
#define DTRACE_PROGF_FILL		0x2
#define DTRACE_PROGF_RING		0x4

/*
 * Firings carry their timestamp (dtrh_timestamp_hi/lo; illumos writes it
 * always): the consumer asks for it when it orders the CPUs' firings by
 * time (-x temporal). Without it the field is 0 and a firing reads the
 * clock only if its DIF uses timestamp: the clock is the costliest part
 * of an enabled probe that records (an emulated HPET: more than the
 * probe itself).
 */
#define DTRACE_PROGF_TIMESTAMP		0x8

/*
 * D's option cpu (illumos DTRACEOPT_CPU): only CPU dtph_cpu is traced.
 * GO allocates that CPU's buffers only (BUFSNAP/AGGSNAP of another CPU:
 * EINVAL, as for an absent CPU), so probes firing elsewhere run none of
 * the state's ECBs; BEGIN and END fire on the CPU that calls GO and STOP,
 * so a consumer calls them from dtph_cpu. GO returns EINVAL when dtph_cpu
 * is not online. Taken from what was the first reserved word of the
 * header: a kernel without it refuses the flag (EINVAL) at ENABLE.
 */
#define DTRACE_PROGF_CPU		0x10

/*
 * dtpa_vkind USTACK (ustack(), jstack()): the current process id (0 in a
 * kernel thread), then up to dtpa_nframes user pcs, the thread's pc first,
 * then zeros to dtpa_size (>= 8 + 8 * dtpa_nframes; jstack()'s string
 * space stays zero). Frames are found along the saved frame pointers.
 */
#define DTRACE_PV_USTACK	5

#endif /* _UAPI_DTRACE_IOCTL_H */
