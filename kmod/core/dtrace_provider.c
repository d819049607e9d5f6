// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_provider.c - the dtrace provider, built into the core (illumos
 * dtrace_provider): dtrace:::BEGIN fires at GO, dtrace:::END at STOP,
 * both on the ioctl's CPU for the one state that asked (state.c);
 * dtrace:::ERROR fires from probe context when a DIF object of a state
 * faults, for that state only, with arg1 = EPID, arg2 = action, arg3 =
 * DIF offset (-1: outside DIF), arg4 = DTRACEFLT_*, arg5 = the illegal
 * value (probe.c).
 *
 * It is registered like any provider, first, so its probes are ids 1-3.
 * Nothing needs arming: enable and disable only agree.
 */
#include "dtrace_impl.h"

dtrace_id_t dtrace_probeid_begin, dtrace_probeid_end, dtrace_probeid_error;
static dtrace_provider_id_t dtrace_provider_id;

static const dtrace_pattr_t dtrace_provider_attr = {
	{ DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
};

/* Its probes exist from init on: nothing to provide on demand. */
static void dtrace_provider_provide(void *arg, const dtrace_probedesc_t *desc)
{
}

static int dtrace_provider_enable(void *arg, dtrace_id_t id, void *parg)
{
	return 0;
}

static void dtrace_provider_disable(void *arg, dtrace_id_t id, void *parg)
{
}

static void dtrace_provider_getargdesc(void *arg, dtrace_id_t id, void *parg,
				       dtrace_argdesc_t *desc)
{
	static const char *const error_args[] = {
		"", "dtrace_epid_t", "int", "int", "int", "uintptr_t",
	};

	if (id != dtrace_probeid_error || desc->dtargd_ndx >= ARRAY_SIZE(error_args) ||
	    desc->dtargd_ndx == 0)
		return;
	strscpy(desc->dtargd_native, error_args[desc->dtargd_ndx],
		sizeof(desc->dtargd_native));
	desc->dtargd_mapping = desc->dtargd_ndx;
}

static const dtrace_pops_t dtrace_provider_ops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = NULL,	/* the core itself: pinned by /dev/dtrace's .owner */
	.dtps_provide = dtrace_provider_provide,
	.dtps_enable = dtrace_provider_enable,
	.dtps_disable = dtrace_provider_disable,
	.dtps_getargdesc = dtrace_provider_getargdesc,
};

int dtrace_provider_init(void)
{
	int err;

	err = dtrace_register("dtrace", &dtrace_provider_attr, DTRACE_PRIV_USER,
			      &dtrace_provider_ops, NULL, &dtrace_provider_id);
	if (err)
		return err;
	dtrace_probeid_begin = dtrace_probe_create(dtrace_provider_id, NULL, NULL, "BEGIN",
						   0, NULL);
	dtrace_probeid_end = dtrace_probe_create(dtrace_provider_id, NULL, NULL, "END", 0,
						 NULL);
	dtrace_probeid_error = dtrace_probe_create(dtrace_provider_id, NULL, NULL, "ERROR",
						   1, NULL);
	if (!dtrace_probeid_begin || !dtrace_probeid_end || !dtrace_probeid_error) {
		dtrace_provider_exit();
		return -ENOMEM;
	}
	return 0;
}

void dtrace_provider_exit(void)
{
	if (dtrace_provider_id && !WARN_ON_ONCE(dtrace_unregister(dtrace_provider_id)))
		dtrace_provider_id = 0;
	dtrace_probeid_begin = dtrace_probeid_end = dtrace_probeid_error = DTRACE_IDNONE;
}
