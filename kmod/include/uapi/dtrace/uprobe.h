/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * uapi/dtrace/uprobe.h - /dev/dtrace_uprobe, the ioctl ABI between the
 * kmod engine (core/engine/kmod/uprobes.hpp) and the uprobe module, the
 * pid provider's kernel half dtrace_pid.ko (plugins/pid/kernel/dtrace_pid.c),
 * which serves every probe that fires from a uprobe (pid, USDT).
 *
 * The kernel half cannot read symbol tables or stapsdt notes: userspace
 * (the probe's plugin, its attach()) resolves a probe to an object and an
 * offset, and the kmod engine places it here before it enables a program
 * on /dev/dtrace:
 *
 *   kmod engine                    dtrace_pid.ko            dtrace.ko
 *   open /dev/dtrace_uprobe ─────► a session
 *   PLACE {names, fd, offset, ──►  provider pid1234 ──────► dtrace_register()
 *          ref_ctr, pid, args}     probe a.out:main:entry ► dtrace_probe_create()
 *                                  (the inode, the process)
 *   kmod engine: ENABLE "pid1234::main:entry" on /dev/dtrace ─► dtps_enable:
 *                                  uprobe_register()
 *   close ───────────────────────► the session's providers go (unregistered
 *                                  once no consumer has them enabled)
 *
 * A probe is placed once per name: a second PLACE of the same
 * provider:mod:func:name at the same place (any session) shares it; at
 * another place it is refused (EEXIST).
 *
 * Fixed layout, no pointers; reserved fields must be zero (EINVAL).
 */
#ifndef _UAPI_DTRACE_UPROBE_H
#define _UAPI_DTRACE_UPROBE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/ioctl.h>
#else
#include <stdint.h>
#include <sys/ioctl.h>
#endif

#include "ioctl.h"

#define DTRACE_UPROBE_DEVICE_NAME	"dtrace_uprobe"	/* /dev/dtrace_uprobe */

/* dtup_kind: where the probe is and what its arguments are. */
enum dtrace_uprobe_kind {
	DTRACE_UPROBE_ENTRY = 1,	/* a function's first instruction: args
					 * from the calling convention's
					 * registers, then the stack */
	DTRACE_UPROBE_RETURN,		/* its returns (a uretprobe on the first
					 * instruction): arg0 0, arg1 the return
					 * value */
	DTRACE_UPROBE_INSN,		/* any instruction: args as ENTRY */
	DTRACE_UPROBE_USDT,		/* a stapsdt site: args from dtup_args */
};

/*
 * One USDT argument (DTRACE_UPROBE_USDT), as plugin.h's dt_usdt_arg_t:
 *   CONST  value
 *   REG    the register at byte offset reg of struct pt_regs
 *   MEM    |size| bytes of user memory at that register + value
 *          (+ the register at byte offset index times scale, scale != 0)
 * truncated to |size| bytes (1, 2, 4, 8), sign-extended when size < 0.
 */
enum dtrace_uprobe_arg_kind {
	DTRACE_UPROBE_ARG_NONE = 0,
	DTRACE_UPROBE_ARG_CONST,
	DTRACE_UPROBE_ARG_REG,
	DTRACE_UPROBE_ARG_MEM,
};

typedef struct dtrace_uprobe_arg {
	int8_t dtua_kind;
	int8_t dtua_size;
	int16_t dtua_reg;
	int16_t dtua_index;
	uint8_t dtua_scale;
	uint8_t dtua_pad;
	int64_t dtua_value;
} dtrace_uprobe_arg_t;

#define DTRACE_UPROBE_MAXARGS	12	/* stapsdt's most operands */

/*
 * DTRACE_UPROBEIOC_PLACE
 *
 * Overview
 *   Creates the probe provider:mod:func:name (registering the provider
 *   with dtrace.ko if it is new) at file offset dtup_offset of the object
 *   open as dtup_fd, for process dtup_pid only (0: every process that
 *   maps the object). Nothing is placed in any process until a consumer
 *   enables the probe.
 *
 * Argument
 *   All fields in; dtup_id out (the probe id). Names are NUL-terminated;
 *   the provider is 1 to DTRACE_PROVNAMELEN - 1 of [A-Za-z0-9_-].
 *   dtup_ref_ctr_offset: a 16-bit is-enabled semaphore's file offset in
 *   the object, incremented while the probe is enabled (0: none).
 *
 * Return value
 *   0.
 *
 * Errors
 *   EINVAL   a bad name, kind, argument, offset, a nonzero reserved field
 *   EBADF    dtup_fd is not an open file
 *   ESRCH    process dtup_pid does not exist (or has no memory map: it is
 *            exiting)
 *   EEXIST   a probe of that name exists at another place
 *   EMFILE   the session has DTRACE_UPROBE_MAXPROBES probes
 *   ENOMEM
 */
typedef struct dtrace_uprobe_place {
	char dtup_provider[DTRACE_PROVNAMELEN];
	char dtup_mod[DTRACE_MODNAMELEN];
	char dtup_func[DTRACE_FUNCNAMELEN];
	char dtup_name[DTRACE_NAMELEN];
	uint64_t dtup_offset;
	uint64_t dtup_ref_ctr_offset;
	int32_t dtup_fd;
	int32_t dtup_pid;
	uint32_t dtup_kind;		/* enum dtrace_uprobe_kind */
	uint32_t dtup_nargs;		/* USDT: dtup_args used */
	dtrace_uprobe_arg_t dtup_args[DTRACE_UPROBE_MAXARGS];
	uint32_t dtup_id;		/* out */
	uint32_t dtup_pad;
} dtrace_uprobe_place_t;

#define DTRACE_UPROBE_MAXPROBES	65536	/* per session */

#define DTRACE_UPROBEIOC_PLACE	_IOWR('u', 1, dtrace_uprobe_place_t)

#endif /* _UAPI_DTRACE_UPROBE_H */
