/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * uapi/dtrace/abi_sizes.h - the size of every struct that crosses
 * /dev/dtrace or the program blob (ioctl.h, actions.h, dif.h), written
 * down once and checked on both sides at build time: dtrace.ko with
 * BUILD_BUG_ON() (kmod/core/dev.c), libdtrace with static_assert
 * (core/engine/kmod/device.cc). A layout change that is not also an ABI
 * version bump (DTRACE_IOCTL_VERSION, DTRACE_PROG_VERSION) and an update
 * here breaks the build of one side or the other, not a running kernel.
 *
 * Use: #define X(type, size) <check>, then DTRACE_ABI_SIZES(X).
 */
#ifndef _UAPI_DTRACE_ABI_SIZES_H
#define _UAPI_DTRACE_ABI_SIZES_H

#define DTRACE_ABI_SIZES(X)               \
	X(dtrace_attribute_t, 4)          \
	X(dtrace_pattr_t, 20)             \
	X(dtrace_conf_t, 56)              \
	X(dtrace_providerdesc_t, 100)     \
	X(dtrace_probedesc_t, 392)        \
	X(dtrace_argdesc_t, 272)          \
	X(dtrace_enable_t, 152)           \
	X(dtrace_eprobedesc_t, 16)        \
	X(dtrace_status_t, 88)            \
	X(dtrace_bufdesc_t, 48)           \
	X(dtrace_prog_hdr_t, 112)         \
	X(dtrace_prog_sec_t, 8)           \
	X(dtrace_prog_difo_t, 24)         \
	X(dtrace_prog_agg_t, 48)          \
	X(dtrace_prog_ecb_t, 400)         \
	X(dtrace_prog_act_t, 24)          \
	X(dtrace_aggrec_t, 16)            \
	X(dtrace_rechdr_t, 12)            \
	X(dtrace_diftype_t, 8)            \
	X(dtrace_difv_t, 20)

#endif /* _UAPI_DTRACE_ABI_SIZES_H */
