// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_profile.c - the profile provider's kernel half (illumos profile.c):
 *
 *   profile-N  one pinned hrtimer per online CPU  ->  profile:::profile-N
 *   tick-N     one pinned hrtimer on the CPU that ->  profile:::tick-N
 *              armed it (the consumer's GO: with D's option cpu the
 *              consumer calls GO there, so its ticks fire there)
 *
 *   arg0  the kernel PC the timer interrupt interrupted (0 in user mode)
 *   arg1  the user PC (0 in kernel mode)
 *   arg2  profile-N only: how late the timer fired (ns), as illumos
 *
 * N is the interval syntax of plugins/profile/interval.hpp (illumos
 * profile_provide()): digits, then an optional unit (ns us ms s m h d hz,
 * and their long forms, case-insensitive); no unit means hertz. Intervals
 * below 200us name no probe. Module and function are empty.
 *
 * Probes are created on demand: the core calls dtps_provide with the
 * description a consumer asks for (PROBEMATCH, ENABLE), and a valid
 * profile-N/tick-N name that does not exist yet becomes a probe. The
 * illumos default set (profile-97 ... tick-5000) exists from the first
 * open on. At most DT_PROF_MAX probes exist (illumos profile_max).
 *
 * Timers are set up in dtps_enable but armed in dtps_start, when a
 * consumer of the probe starts tracing (GO, after its BEGIN): the first
 * tick-N or profile-N firing comes one interval after BEGIN, however long
 * the consumer took from ENABLE to GO. A probe already armed for another
 * consumer keeps its phase. They are cancelled (hrtimer_cancel(), which
 * waits for a running callback) in dtps_disable, so no callback runs once
 * disable returns. The callbacks run in hard interrupt context
 * (HRTIMER_MODE_*_HARD, also on PREEMPT_RT), where get_irq_regs() is the
 * interrupted context. CPU hotplug: setup holds cpus_read_lock(); a CPU
 * going offline has its timers migrated (they keep firing elsewhere) and
 * one coming online while a probe is enabled gets no timer until the
 * probe is enabled again.
 */
#define pr_fmt(fmt) "dtrace_profile: " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/version.h>
#include <asm/irq_regs.h>
#include <asm/ptrace.h>

#include <dtrace/provider.h>

#define DT_PROF_MIN_NS	(NSEC_PER_SEC / 5000)	/* profile_interval_min */
#define DT_PROF_MAX	1000			/* profile_max */
#define DT_PROF_MODE	HRTIMER_MODE_REL_PINNED_HARD

struct dt_prof_probe;

struct dt_prof_timer {
	struct hrtimer timer;
	struct dt_prof_probe *probe;
};

struct dt_prof_probe {
	dtrace_id_t id;
	bool tick;				/* tick-N: one CPU */
	ktime_t interval;
	struct dt_prof_timer tick_timer;	/* tick-N */
	struct dt_prof_timer __percpu *timers;	/* profile-N, while enabled */
	bool armed;				/* dtps_start ran since dtps_enable */
};

static dtrace_provider_id_t dt_prof_id;
static unsigned int dt_prof_nprobes;	/* under the core's provider lock */

static const dtrace_pattr_t dt_prof_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON },
};

/* illumos profile_rates[] and profile_ticks[]: created at the first open. */
static const char *const dt_prof_defaults[] = {
	"profile-97", "profile-199", "profile-499", "profile-997",
	"profile-1999", "profile-4001", "profile-4999",
	"tick-1", "tick-10", "tick-100", "tick-500", "tick-1000", "tick-5000",
};

/* profile.c suffixes[]: nanoseconds per unit, 0 for a rate in hertz. */
static const struct {
	const char *name;
	u64 ns;
} dt_prof_units[] = {
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", NSEC_PER_USEC }, { "usec", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC }, { "msec", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC }, { "hour", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC }, { "day", 86400 * NSEC_PER_SEC },
	{ "hz", 0 }, { "", 0 },
};

/*
 * Parse "profile-N[unit]" or "tick-N[unit]": true with the interval in
 * *ns and the kind in *tick, false if name is no valid profile probe
 * (the same rules as the userspace plugin's parse_probe_name()).
 */
static bool dt_prof_parse(const char *name, u64 *ns, bool *tick)
{
	const char *p;
	u64 n = 0, v;
	unsigned int i;

	if (!strncmp(name, "profile-", 8)) {
		*tick = false;
		p = name + 8;
	} else if (!strncmp(name, "tick-", 5)) {
		*tick = true;
		p = name + 5;
	} else {
		return false;
	}
	if (!isdigit(*p))
		return false;
	for (; isdigit(*p); p++)
		if (check_mul_overflow(n, 10ULL, &n) || check_add_overflow(n, (u64)(*p - '0'), &n))
			return false;
	if (n == 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(dt_prof_units); i++)
		if (!strcasecmp(p, dt_prof_units[i].name))
			break;
	if (i == ARRAY_SIZE(dt_prof_units))
		return false;
	if (dt_prof_units[i].ns == 0) {
		v = div64_u64(NSEC_PER_SEC, n);	/* a rate: truncated, as profile.c */
	} else {
		if (n > div64_u64(S64_MAX, dt_prof_units[i].ns))
			return false;
		v = n * dt_prof_units[i].ns;
	}
	if (v < DT_PROF_MIN_NS)
		return false;
	*ns = v;
	return true;
}

/* ==== Probe context ================================================== */

static enum hrtimer_restart dt_prof_fire(struct hrtimer *timer)
{
	struct dt_prof_timer *t = container_of(timer, struct dt_prof_timer, timer);
	struct dt_prof_probe *pp = t->probe;
	struct pt_regs *regs = get_irq_regs();
	u64 kpc = 0, upc = 0, late = 0;

	if (regs) {
		if (user_mode(regs))
			upc = instruction_pointer(regs);
		else
			kpc = instruction_pointer(regs);
	}
	if (!pp->tick)
		late = ktime_to_ns(ktime_sub(ktime_get(),
					     hrtimer_get_expires(timer)));
	dtrace_probe(pp->id, kpc, upc, late, 0, 0, 0);
	hrtimer_forward_now(timer, pp->interval);
	return HRTIMER_RESTART;
}

/* ==== Provider operations ============================================ */

static void dt_prof_timer_init(struct dt_prof_timer *t, struct dt_prof_probe *pp)
{
	t->probe = pp;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&t->timer, dt_prof_fire, CLOCK_MONOTONIC, DT_PROF_MODE);
#else
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, DT_PROF_MODE);
	t->timer.function = dt_prof_fire;
#endif
}

/* Runs on the CPU the timer is pinned to, interrupts off (cross-call). */
static void dt_prof_start_cpu(void *arg)
{
	struct dt_prof_probe *pp = arg;
	struct dt_prof_timer *t = pp->tick ? &pp->tick_timer : this_cpu_ptr(pp->timers);

	hrtimer_start(&t->timer, pp->interval, DT_PROF_MODE);
}

static void dt_prof_create(const char *name)
{
	struct dt_prof_probe *pp;
	bool tick;
	u64 ns;

	if (!dt_prof_parse(name, &ns, &tick) ||
	    dtrace_probe_lookup(dt_prof_id, NULL, NULL, name))
		return;
	if (dt_prof_nprobes >= DT_PROF_MAX) {
		pr_warn_ratelimited("no probe %s: %d probes exist already\n", name, DT_PROF_MAX);
		return;
	}
	pp = kzalloc(sizeof(*pp), GFP_KERNEL);
	if (!pp)
		return;
	pp->tick = tick;
	pp->interval = ns_to_ktime(ns);
	pp->id = dtrace_probe_create(dt_prof_id, "", "", name, 1, pp);
	if (pp->id == DTRACE_IDNONE) {
		kfree(pp);
		return;
	}
	dt_prof_nprobes++;
}

/*
 * desc NULL: the default set; else the probe desc names, if it is a
 * valid profile-N/tick-N name (a glob creates nothing).
 */
static void dt_prof_provide(void *arg, const dtrace_probedesc_t *desc)
{
	unsigned int i;

	if (desc) {
		dt_prof_create(desc->dtpd_name);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(dt_prof_defaults); i++)
		dt_prof_create(dt_prof_defaults[i]);
}

static int dt_prof_enable(void *arg, dtrace_id_t id, void *parg)
{
	struct dt_prof_probe *pp = parg;
	int cpu;

	pp->id = id;
	pp->armed = false;
	if (pp->tick) {
		dt_prof_timer_init(&pp->tick_timer, pp);
		return 0;
	}
	pp->timers = alloc_percpu(struct dt_prof_timer);
	if (!pp->timers)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		dt_prof_timer_init(per_cpu_ptr(pp->timers, cpu), pp);
	return 0;
}

/* A consumer's GO: arm the timers unless another consumer did. */
static void dt_prof_start(void *arg, dtrace_id_t id, void *parg)
{
	struct dt_prof_probe *pp = parg;
	int err = 0;

	if (pp->armed)
		return;
	pp->armed = true;
	cpus_read_lock();
	if (pp->tick)
		err = smp_call_function_single(raw_smp_processor_id(), dt_prof_start_cpu, pp, 1);
	else
		on_each_cpu(dt_prof_start_cpu, pp, 1);
	cpus_read_unlock();
	if (err)
		pr_warn_ratelimited("tick probe %u not started: %d\n", id, err);
}

static void dt_prof_disable(void *arg, dtrace_id_t id, void *parg)
{
	struct dt_prof_probe *pp = parg;
	int cpu;

	pp->armed = false;
	if (pp->tick) {
		hrtimer_cancel(&pp->tick_timer.timer);
		return;
	}
	if (WARN_ON_ONCE(!pp->timers))
		return;
	/* Every possible CPU: a timer may have migrated off a dead CPU. */
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(pp->timers, cpu)->timer);
	free_percpu(pp->timers);
	pp->timers = NULL;
}

/* dtrace_unregister(): the probe is disabled and unreachable. */
static void dt_prof_destroy(void *arg, dtrace_id_t id, void *parg)
{
	kfree(parg);
}

static const dtrace_pops_t dt_prof_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_prof_provide,
	.dtps_enable = dt_prof_enable,
	.dtps_disable = dt_prof_disable,
	.dtps_destroy = dt_prof_destroy,
	.dtps_start = dt_prof_start,
};

static int __init dt_prof_init(void)
{
	/* Probes are created by dt_prof_provide, which the core calls. */
	return dtrace_register("profile", &dt_prof_attr, DTRACE_PRIV_USER, &dt_prof_pops,
			       NULL, &dt_prof_id);
}

static void __exit dt_prof_exit(void)
{
	/* Every probe is disabled (module references), so this succeeds. */
	WARN_ON(dtrace_unregister(dt_prof_id));
}

module_init(dt_prof_init);
module_exit(dt_prof_exit);

MODULE_DESCRIPTION("DTrace profile provider: profile-N and tick-N from hrtimers");
MODULE_LICENSE("GPL");
