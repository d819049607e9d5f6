/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dtrace/provider.h - the DTrace provider API: what a provider module
 * (plugins/<p>/kernel/, an out-of-tree provider) calls in the core module
 * dtrace.ko, and what the core calls back. The model is illumos sys/dtrace.h
 * "DTrace Provider API" and Oracle's Linux port of it; the numbered
 * contracts below follow illumos' layout (Overview / Arguments / Return
 * value / Caller's context).
 *
 *   provider module                          dtrace.ko
 *   ───────────────                          ─────────
 *   module_init ── dtrace_register() ──────► registry (provider, pops, arg)
 *               ◄── dtps_provide(arg, desc)  consumer open, PROBEMATCH, ENABLE
 *   dtrace_probe_create[_flags]() ─────────► probe id table
 *               ◄── dtps_enable(arg, id, parg)  first ECB on a probe
 *               ◄── dtps_start(arg, id, parg)   its consumer's GO (optional)
 *   hook fires ── dtrace_probe(id, args) ──► ECBs: predicates, actions, buffers
 *               ◄── dtps_disable(arg, id, parg) last ECB gone
 *   module_exit ── dtrace_unregister() ────► dtps_destroy() for each probe
 *
 * Module safety (the core does it, the provider only sets dtps_owner =
 * THIS_MODULE): the core holds a reference on dtps_owner while any probe
 * of the provider is enabled, and one per open consumer (/dev/dtrace), so
 * `rmmod` of a provider in use fails with EBUSY and module_exit always
 * finds dtrace_unregister() succeeding. The provider's symbol dependency
 * on dtrace.ko pins the core.
 *
 * Versioning: DTRACE_PROVIDER_API_VERSION changes whenever a structure or
 * function below changes incompatibly; dtrace_register() refuses a pops
 * table of another version (EINVAL), and modversions refuses a module
 * built against other prototypes. Additions (a new optional hook at the
 * end of dtrace_pops_t, a new function such as dtrace_probe_create_flags())
 * do not change the version.
 */
#ifndef _DTRACE_PROVIDER_H
#define _DTRACE_PROVIDER_H

#include <linux/types.h>
#include <uapi/dtrace/ioctl.h>

struct module;

#define DTRACE_PROVIDER_API_VERSION	2	/* 2: getargval up to argno 11 */

/* A probe id: 1 ... ; DTRACE_IDNONE (0) is no probe. */
typedef u32 dtrace_id_t;

/* A provider handle, opaque to providers; 0 is none. */
typedef uintptr_t dtrace_provider_id_t;

/*
 * Arguments dtrace_probe() takes directly; args 6-11 come from getargval.
 * 12: a stapsdt note's most operands (args[10], args[11]); arg0-arg9 are
 * D's built-in variables, the rest are read as args[N].
 */
#define DTRACE_PROBE_NARGS	6
#define DTRACE_MAXARGS		12

/*
 * dtrace_pops_t: the provider's operations, called by the core. Every
 * hook gets the arg given to dtrace_register() first. A provider must set
 * dtps_version and dtps_owner, and at least one of the provide hooks;
 * enable and disable are required (a provider that cannot fire without
 * being armed still says so in enable), the others may be NULL.
 *
 * dtps_provide(arg, desc)
 *   Create the provider's probes (dtrace_probe_create()). Called when a
 *   consumer opens /dev/dtrace (desc NULL: create what you always have),
 *   at dtrace_register() while consumers are open, and when PROBEMATCH or
 *   ENABLE look for desc (create probes on demand, e.g. profile-997). Must
 *   tolerate being called again: check with dtrace_probe_lookup() first.
 *   Calls are serialized by the core's provider lock, so a provider that
 *   creates its probes only here needs no lock of its own for that (one
 *   that also creates probes elsewhere must serialize with this hook).
 *   Context: process, may sleep; the
 *   provider lock is held, so it must not call dtrace_register(),
 *   dtrace_unregister() or dtrace_invalidate().
 *
 * dtps_provide_module(arg, mod)
 *   Create the probes of kernel module mod, which has just become live
 *   (a module notifier). Same context as dtps_provide.
 *
 * dtps_enable(arg, id, parg) -> 0 or a negative errno
 *   Probe id goes from no ECB to one: arm it (register the tracepoint
 *   hook, start the timer ...). After it returns 0, dtrace_probe(id, ...)
 *   may be called at any time. An error fails the whole ENABLE ioctl.
 *   Context: process, may sleep; the core's probe lock is held: do not
 *   call dtrace_probe_create() or dtrace_probe_lookup().
 *
 * dtps_disable(arg, id, parg)
 *   Probe id goes from one ECB to none: disarm it. When it returns, the
 *   provider must no longer call dtrace_probe(id) (calls already running
 *   on other CPUs are waited for by the core with synchronize_rcu()).
 *   Same context as dtps_enable.
 *
 * dtps_getargdesc(arg, id, parg, desc)
 *   Fill desc (native/translated type names, mapping) for argument
 *   desc->dtargd_ndx, or set desc->dtargd_mapping = DTRACE_ARGNONE.
 *   Optional: types usually come from the userspace plugin. Context:
 *   ioctl (process), may sleep.
 *
 * dtps_getargval(arg, id, parg, argno, aframes) -> the value
 *   Argument argno (DTRACE_PROBE_NARGS <= argno < DTRACE_MAXARGS) of
 *   the firing in progress.
 *   NULL: such arguments read as 0. Context: probe context (interrupts
 *   off, any context up to NMI): must not sleep, allocate, take a lock
 *   or fault (use copy_from_kernel_nofault()).
 *
 * dtps_destroy(arg, id, parg)
 *   Free the provider's per-probe data (parg). Called by
 *   dtrace_unregister() for each probe, which is then disabled and no
 *   longer reachable. Context: process, may sleep.
 *
 * dtps_start(arg, id, parg)
 *   A consumer with an ECB on enabled probe id started tracing (GO), after
 *   its dtrace:::BEGIN ran. Optional. For probes that fire on their own
 *   clock (profile-N, tick-N): arming the timer here rather than in
 *   dtps_enable makes the first firing come one interval after BEGIN.
 *   Called once per ECB of the consumer on the probe, and again for every
 *   later consumer that starts while the probe stays enabled: arm only
 *   what is not armed yet. Same context as dtps_enable.
 */
typedef struct dtrace_pops {
	u32 dtps_version;			/* DTRACE_PROVIDER_API_VERSION */
	struct module *dtps_owner;		/* THIS_MODULE */
	void (*dtps_provide)(void *arg, const dtrace_probedesc_t *desc);
	void (*dtps_provide_module)(void *arg, struct module *mod);
	int (*dtps_enable)(void *arg, dtrace_id_t id, void *parg);
	void (*dtps_disable)(void *arg, dtrace_id_t id, void *parg);
	void (*dtps_getargdesc)(void *arg, dtrace_id_t id, void *parg,
				dtrace_argdesc_t *desc);
	u64 (*dtps_getargval)(void *arg, dtrace_id_t id, void *parg,
			      int argno, int aframes);
	void (*dtps_destroy)(void *arg, dtrace_id_t id, void *parg);
	void (*dtps_start)(void *arg, dtrace_id_t id, void *parg);
} dtrace_pops_t;

/*
 * 1. dtrace_register()
 *
 * Overview
 *   Makes a provider known to the core. Its probes can then be created
 *   (dtrace_probe_create()), listed, enabled and fired. Open consumers
 *   immediately take a reference on pops->dtps_owner, as at open.
 *
 * Arguments
 *   name   the provider name: 1 to DTRACE_PROVNAMELEN - 1 characters of
 *          [A-Za-z0-9_-], unique among registered providers.
 *   pattr  its stability attributes (copied).
 *   priv   DTRACE_PRIV_* (reported to consumers).
 *   pops   its operations (not copied: must stay valid until
 *          dtrace_unregister() returns; normally a static const table).
 *   arg    passed back as the first argument of every pops hook.
 *   idp    where the provider handle is stored on success.
 *
 * Return value
 *   0, or -EINVAL (bad name, attributes, priv, pops version, missing
 *   hooks), -EEXIST (name taken), -ENOMEM.
 *
 * Caller's context
 *   Process context, may sleep. No DTrace lock may be held (it may call
 *   back into dtps_provide); so never from a pops hook.
 */
int dtrace_register(const char *name, const dtrace_pattr_t *pattr, u32 priv,
		    const dtrace_pops_t *pops, void *arg, dtrace_provider_id_t *idp);

/*
 * 2. dtrace_unregister()
 *
 * Overview
 *   Removes a provider: calls dtps_destroy() for each of its probes and
 *   forgets them and the provider. Waits (synchronize_rcu()) until no CPU
 *   can still be running dtrace_probe() on one of its probes before
 *   destroying them.
 *
 * Arguments
 *   id     the handle dtrace_register() returned.
 *
 * Return value
 *   0, or -EBUSY while one of its probes is enabled (an ECB of an open
 *   consumer uses it); nothing is removed then. -EINVAL: not a provider.
 *   With the module references described at the top, module_exit never
 *   sees -EBUSY.
 *
 * Caller's context
 *   Process context, may sleep; no DTrace lock held; never from a pops
 *   hook.
 */
int dtrace_unregister(dtrace_provider_id_t id);

/*
 * 3. dtrace_invalidate()
 *
 * Overview
 *   Marks the provider defunct: its probes can no longer be enabled
 *   (ENABLE fails with ESRCH) or provided; those already enabled keep
 *   firing until their consumers close. For a provider that is going
 *   away on its own (its hardware, its subsystem) before it can
 *   unregister.
 *
 * Arguments
 *   id     the provider handle.
 *
 * Return value
 *   None.
 *
 * Caller's context
 *   Process context, may sleep; no DTrace lock held.
 */
void dtrace_invalidate(dtrace_provider_id_t id);

/*
 * 4. dtrace_probe_create()
 *
 * Overview
 *   Creates a probe provider:mod:func:name and returns its id. Checking
 *   for duplicates is the provider's job (dtrace_probe_lookup()).
 *
 * Arguments
 *   prov     the provider handle.
 *   mod      module name (may be "" or NULL: none), < DTRACE_MODNAMELEN.
 *   func     function name (may be "" or NULL), < DTRACE_FUNCNAMELEN.
 *   name     probe name, non-empty, < DTRACE_NAMELEN.
 *   aframes  artificial frames (the provider's own) to skip in stack().
 *   parg     the provider's per-probe data, passed back to enable,
 *            disable, getargdesc, getargval and destroy.
 *
 * Return value
 *   The new probe id, or DTRACE_IDNONE when the names are invalid, the
 *   provider is defunct or memory ran out (unlike illumos, which sleeps
 *   until it has memory).
 *
 * Caller's context
 *   Process context, may sleep; typically from dtps_provide or module
 *   init. Not from dtps_enable/dtps_disable (probe lock held there).
 */
dtrace_id_t dtrace_probe_create(dtrace_provider_id_t prov, const char *mod,
				const char *func, const char *name, int aframes,
				void *parg);

/*
 * Probe flags (dtrace_probe_create_flags()): what the core must know of how
 * a probe fires, as the userspace plugin says it (dtrace/plugin.h
 * dt_probe_fire_t), so that no probe is recognised by its name.
 *
 * DTRACE_PROBE_F_ERRNO_RETURN
 *   arg0 is a return value, an error when it lies in -4095 .. -1: D's
 *   errno is then its negation (syscall:::return); for other probes errno
 *   is 0.
 */
#define DTRACE_PROBE_F_ERRNO_RETURN	0x1
#define DTRACE_PROBE_F_ALL		DTRACE_PROBE_F_ERRNO_RETURN

/*
 * 4a. dtrace_probe_create_flags()
 *
 * Overview
 *   dtrace_probe_create() with probe flags: the probe is created with
 *   them, so no firing can see it without them.
 *
 * Arguments
 *   As dtrace_probe_create(), and
 *   flags    DTRACE_PROBE_F_*.
 *
 * Return value
 *   As dtrace_probe_create(); DTRACE_IDNONE also for an unknown flag.
 *
 * Caller's context
 *   As dtrace_probe_create().
 */
dtrace_id_t dtrace_probe_create_flags(dtrace_provider_id_t prov, const char *mod,
				      const char *func, const char *name, int aframes,
				      void *parg, u32 flags);

/*
 * 5. dtrace_probe_lookup()
 *
 * Overview
 *   Finds a probe of this provider by name.
 *
 * Arguments
 *   prov            the provider handle.
 *   mod, func, name NULL matches any value; otherwise compared exactly.
 *
 * Return value
 *   The lowest matching probe id, or DTRACE_IDNONE.
 *
 * Caller's context
 *   Process context, may sleep; not from dtps_enable/dtps_disable.
 */
dtrace_id_t dtrace_probe_lookup(dtrace_provider_id_t prov, const char *mod,
				const char *func, const char *name);

/*
 * 6. dtrace_probe_arg()
 *
 * Overview
 *   Returns the parg given to dtrace_probe_create() for probe id.
 *
 * Arguments
 *   prov   the provider handle; id: a probe it created.
 *
 * Return value
 *   The parg, or NULL when id is not a probe of prov.
 *
 * Caller's context
 *   Process context, may sleep.
 */
void *dtrace_probe_arg(dtrace_provider_id_t prov, dtrace_id_t id);

/*
 * 7. dtrace_probe()
 *
 * Overview
 *   Fires probe id: for each ECB of each consumer on it, runs the
 *   predicate and the actions and writes the firing into this CPU's
 *   principal buffer or aggregation buffer. A fault in a DIF object is
 *   reported as a dtrace:::ERROR firing, never a crash.
 *
 * Arguments
 *   id        a probe the provider created and the core enabled (calls
 *             for a probe with no ECB cost a lookup and return).
 *   arg0-5    the probe's arguments (arg0 ... arg5 in D); arg6-9 come
 *             from dtps_getargval.
 *
 * Return value
 *   None.
 *
 * Caller's context
 *   Any context: process, softirq, hardirq, NMI, with or without locks,
 *   interrupts on or off. It disables interrupts itself, never sleeps,
 *   allocates, faults or takes a blocking lock. A call made while this
 *   CPU is already inside dtrace_probe() (an NMI, a probe on something
 *   the core calls) is dropped and counted, not run. It must not be
 *   called for a probe after the provider's dtps_disable for it returned.
 */
void dtrace_probe(dtrace_id_t id, u64 arg0, u64 arg1, u64 arg2, u64 arg3,
		  u64 arg4, u64 arg5);

/*
 * dtrace_probe_at() - dtrace_probe(), where the kernel stack that stack(),
 * caller and stackdepth see begins at the probed function's caller, past
 * whatever the kernel's probe machinery put above it (ftrace trampolines,
 * kprobe handlers, rethook), which a fixed aframes count cannot know.
 * start: at a function's entry, the function's address (the stack begins
 * past the frame in its first bytes, the ftrace call's return address); at
 * its return, the return site (the stack begins at that frame). When no
 * frame matches, the probe's aframes are skipped as with dtrace_probe().
 * Same context as dtrace_probe().
 */
void dtrace_probe_at(dtrace_id_t id, unsigned long start, u64 arg0, u64 arg1, u64 arg2,
		     u64 arg3, u64 arg4, u64 arg5);

#endif /* _DTRACE_PROVIDER_H */
