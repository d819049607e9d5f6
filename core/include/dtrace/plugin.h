/* SPDX-License-Identifier: MIT */
/*
 * dtrace/plugin.h - the provider plugin ABI (the SDK's one header).
 *
 * A provider is a shared object that the consumer loads on demand. It
 * exports exactly one C function, DT_PLUGIN_ENTRY_SYMBOL, returning a
 * size-prefixed operations table. The consumer never calls anything else
 * in the object, so a plugin built against an older or newer copy of this
 * header keeps working as long as the major ABI version matches:
 *
 *   consumer (libdtrace)                       plugin (libdt_<name>.so)
 *   --------------------                       ------------------------
 *   dlopen()  ──────────────────────────────►  dtrace_plugin_entry(&host)
 *             ◄──────────────────────────────  const dt_plugin_ops_t *
 *   check ops->sz, ops->abi_major
 *   ops->init(&host, &state)
 *   ops->probes(state, &query, cb, arg)   ──►  cb(arg, &probe) for each probe
 *   ops->probe_args(state, &probe, cb, arg) ►  cb(arg, &argdesc) for each arg
 *   ops->fires(state, &probe, &fire)       ►  how the probe fires (ABI 1.4)
 *   ops->kmod / ops->bpf                       engine hooks (see below)
 *   ops->fini(state)
 *
 * Extending the ABI (the libbpf "opts" rule): every struct that crosses
 * the boundary begins with a size_t `sz` that the producer sets to
 * sizeof() as *it* was compiled. New fields are only ever appended. A
 * reader treats a field that lies beyond `sz` as zero/NULL (see
 * DT_ABI_HAS()). Removing or reordering a field, or changing a callback's
 * signature, is a major version bump: the consumer refuses such a plugin
 * with a warning that names the file.
 *
 * Strings the plugin passes to a callback need only live until the
 * callback returns; the consumer copies what it keeps. Strings in the ops
 * table itself (name, module names) must live as long as the object is
 * loaded.
 *
 * Error convention: functions return 0 on success or a negative errno;
 * a plugin never prints, it reports through host->log. A plugin must not
 * let a C++ exception escape any function of this table.
 */
#ifndef DTRACE_PLUGIN_H
#define DTRACE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change; the consumer requires equality. */
#define DT_PLUGIN_ABI_MAJOR 1
/* Bumped when fields are appended; informational (sz is what counts). */
#define DT_PLUGIN_ABI_MINOR 9

#define DT_PLUGIN_ENTRY_SYMBOL "dtrace_plugin_entry"

/* True if the struct *p, as its producer built it, contains `field`. */
#define DT_ABI_HAS(p, field) \
	((p)->sz >= offsetof(__typeof__(*(p)), field) + sizeof((p)->field))

/*
 * Stability attributes (illumos dtrace.h, "DTrace Stability Attributes").
 * Printed by `dtrace -lv`; ordered from least to most stable.
 */
enum dt_stability {
	DT_STABILITY_INTERNAL = 0,
	DT_STABILITY_PRIVATE,
	DT_STABILITY_OBSOLETE,
	DT_STABILITY_EXTERNAL,
	DT_STABILITY_UNSTABLE,
	DT_STABILITY_EVOLVING,
	DT_STABILITY_STABLE,
	DT_STABILITY_STANDARD,
};

enum dt_class {
	DT_CLASS_UNKNOWN = 0,
	DT_CLASS_CPU,
	DT_CLASS_PLATFORM,
	DT_CLASS_GROUP,
	DT_CLASS_ISA,
	DT_CLASS_COMMON,
};

typedef struct dt_attribute {
	uint8_t name;  /* enum dt_stability of identifier names */
	uint8_t data;  /* enum dt_stability of data semantics */
	uint8_t klass; /* enum dt_class of the dependency */
} dt_attribute_t;

/* One attribute per probe-description field, and one for the arguments. */
typedef struct dt_pattr {
	dt_attribute_t provider;
	dt_attribute_t mod;
	dt_attribute_t func;
	dt_attribute_t name;
	dt_attribute_t args;
} dt_pattr_t;

/* Privilege classes (illumos DTRACE_PRIV_*): who may enable the probes. */
#define DT_PRIV_NONE 0x0000
#define DT_PRIV_KERNEL 0x0001
#define DT_PRIV_USER 0x0002
#define DT_PRIV_PROC 0x0004
#define DT_PRIV_OWNER 0x0008

/* Logging back into the host; the plugin never writes to stdio. */
enum dt_log_level { DT_LOG_DEBUG = 0, DT_LOG_WARN = 1, DT_LOG_ERROR = 2 };

/*
 * What the host offers a plugin. Passed to the entry function and to
 * init(); lives until fini() returns.
 */
typedef struct dt_plugin_host {
	size_t sz;
	uint32_t abi_major;
	uint32_t abi_minor;
	/* printf-style; `host` is this struct. May be called from any plugin op. */
	void (*log)(const struct dt_plugin_host *host, int level,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
	/* Root of the tracefs mount the host found (or mounted), or NULL. */
	const char *tracefs;
	/* Process IDs grabbed with -p or created with -c, in order; nprocs may be 0. */
	const int32_t *procs;
	uint32_t nprocs;
	void *host_private; /* the host's own; plugins must not touch it */

	/* ---- ABI 1.8 (read with DT_ABI_HAS) ---- */
	/*
	 * From probes() only: the query is a description this provider
	 * refuses, as illumos' dt_pid.c refuses `pid0:::entry` or a function
	 * the named module does not have. `tag` is the D compiler's
	 * diagnostic tag for it ("D_PROC_FUNC"), the rest DTrace's message.
	 * The host reports a compile error of the description (at its line,
	 * with that tag) instead of the probes; probes() should then stop
	 * and return -EINVAL. The first call of a probes() call counts.
	 */
	void (*desc_error)(const struct dt_plugin_host *host, const char *tag,
			   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
} dt_plugin_host_t;

/*
 * A probe as a plugin reports it. `provider` may differ from the plugin's
 * name for plugins that own a family of providers (pid -> pid1234).
 * `mod` and `func` may be "" (unanchored probe), never NULL.
 */
typedef struct dt_probe_info {
	size_t sz;
	const char *provider;
	const char *mod;
	const char *func;
	const char *name;
	/*
	 * Opaque to the host; given back in probe_args() and the engine hooks
	 * so the plugin need not look the probe up again (e.g. a syscall
	 * number, a symbol address).
	 */
	uint64_t cookie;
} dt_probe_info_t;

/*
 * What the consumer wants enumerated. Every field is a DTrace glob
 * (`*`, `?`, `[...]`, `\`) or "" for "any". The host filters everything a
 * plugin reports against the query, so the query is only a hint: a plugin
 * uses it to avoid work (not reading every symbol of every library when
 * `func` is a plain name) and to create probes on demand (profile-N).
 */
typedef struct dt_probe_query {
	size_t sz;
	const char *provider;
	const char *mod;
	const char *func;
	const char *name;
} dt_probe_query_t;

/* Return non-zero from a callback to stop the enumeration early. */
typedef int (*dt_probe_cb)(void *arg, const dt_probe_info_t *probe);

/*
 * One argument of a probe, as `dtrace -lv` and args[] see it.
 *   native:  the C type the probe site passes (e.g. "struct task_struct *");
 *   xlate:   the type D programs see through a translator (e.g. "psinfo_t *"),
 *            or NULL when args[ndx] has the native type;
 *   name:    the argument's name where one exists ("filename"), or NULL;
 *   mapping: which native argument args[ndx] is built from (usually ndx).
 */
typedef struct dt_arg_desc {
	size_t sz;
	int32_t ndx;
	int32_t mapping;
	const char *native;
	const char *xlate;
	const char *name;
} dt_arg_desc_t;

typedef int (*dt_arg_cb)(void *arg, const dt_arg_desc_t *desc);

/*
 * Engine hooks. Each engine owns one size-prefixed table; a NULL table
 * (or a NULL function in it) means "this engine cannot run this
 * provider", which the consumer reports by name rather than ignoring.
 */

/* kmod engine: the kernel half of the provider. */
typedef struct dt_plugin_kmod_ops {
	size_t sz;
	/* Module name for modprobe/finit_module, e.g. "dtrace_syscall". */
	const char *module;
	/*
	 * Optional: the provider name the kernel half registers, when it
	 * differs from the plugin's name. NULL means the same.
	 */
	const char *kernel_provider;

	/* ---- ABI 1.7 (read with DT_ABI_HAS) ---- */
	/*
	 * Optional: hand the kernel half the probes it cannot find by itself
	 * (fbt: kernel functions, whose names a module cannot walk), so that
	 * it creates them. The kmod engine calls it once the module is
	 * loaded, before it enables or lists the plugin's probes, with every
	 * probe of this plugin the descriptions matched (`probes`, `n`; the
	 * strings live until it returns). How they reach the module is the
	 * plugin's (fbt: its module's `provide` parameter). Return 0, or a
	 * negative errno with host->log saying why.
	 */
	int (*provide)(void *state, const dt_probe_info_t *probes, size_t n);
} dt_plugin_kmod_ops_t;

/* How the bpf engine attaches a program for one probe. */
enum dt_bpf_attach_kind {
	DT_BPF_ATTACH_NONE = 0,
	DT_BPF_ATTACH_TRACEPOINT,     /* target "group:event" */
	DT_BPF_ATTACH_RAW_TRACEPOINT, /* target "event" */
	DT_BPF_ATTACH_KPROBE,	      /* target symbol, offset */
	DT_BPF_ATTACH_KRETPROBE,      /* target symbol */
	DT_BPF_ATTACH_FENTRY,	      /* target symbol (BTF), see below */
	DT_BPF_ATTACH_FEXIT,	      /* target symbol (BTF), see below */
	DT_BPF_ATTACH_UPROBE,	      /* target path, offset, pid */
	DT_BPF_ATTACH_URETPROBE,      /* target path, offset, pid */
	DT_BPF_ATTACH_PERF_EVENT,     /* period_ns, cpu (-1: every CPU) */
	DT_BPF_ATTACH_CONSUMER,	      /* fired by the consumer (BEGIN/END) */
};

/*
 * FENTRY and FEXIT (BPF trampolines): `target` is a vmlinux function and
 * `offset` its BTF FUNC id in /sys/kernel/btf/vmlinux; ctx is
 * DT_BPF_CTX_RAW over the trampoline's context, an array of `nargs` u64
 * slots: the function's arguments, and for FEXIT the return value after
 * them (argmap picks args[i] from the slots, -1: 0). A host that cannot
 * have the trampoline for a function attaches a kprobe (FENTRY, with
 * DT_BPF_CTX_REGS) or kretprobe (FEXIT, DT_BPF_CTX_REGS_RETURN) on
 * `target` instead.
 */

/*
 * One argument of a USDT probe site (DT_BPF_CTX_USDT), from a stapsdt
 * note's operand ("-4@%edi", "8@-16(%rbp)", "4@$5"):
 *   DT_USDT_ARG_CONST  value
 *   DT_USDT_ARG_REG    the register at byte offset `reg` of the platform's
 *                      struct pt_regs
 *   DT_USDT_ARG_MEM    `size` bytes of user memory at that register plus
 *                      `value`, plus the register at byte offset `index`
 *                      times `scale` when scale is not 0 (base, index,
 *                      scale: "8@-8(%rbp,%rax,8)")
 * then truncated to |size| bytes (1, 2, 4 or 8) and sign-extended when
 * size is negative, zero-extended otherwise.
 */
enum dt_usdt_arg_kind {
	DT_USDT_ARG_NONE = 0,
	DT_USDT_ARG_CONST,
	DT_USDT_ARG_REG,
	DT_USDT_ARG_MEM,
};

typedef struct dt_usdt_arg {
	int8_t kind; /* enum dt_usdt_arg_kind */
	int8_t size; /* bytes; negative: signed */
	int16_t reg; /* byte offset in struct pt_regs */
	int16_t index; /* DT_USDT_ARG_MEM with scale: the index register */
	uint8_t scale; /* 0 (no index), 1, 2, 4 or 8 */
	uint8_t pad;
	int64_t value;
} dt_usdt_arg_t;

/*
 * A step of a filter program (dt_bpf_attach_t, ABI 1.6): `op` one of
 * enum dt_bpf_filter_op, `a` and `imm` its operands.
 */
#define DT_BPF_FILTER_STEPS 32
#define DT_BPF_FILTER_STACK 4
enum dt_bpf_filter_op {
	DT_BPF_FOP_ARG = 1, /* acc = raw argument a */
	DT_BPF_FOP_CONST,   /* acc = imm */
	DT_BPF_FOP_LOAD,    /* acc = the unsigned a-byte (1, 2, 4, 8) value at acc + imm */
	DT_BPF_FOP_PUSH,    /* push acc */
	DT_BPF_FOP_PEEK,    /* acc = the top of the stack */
	DT_BPF_FOP_ADD,	    /* acc += pop */
	DT_BPF_FOP_OR,	    /* acc |= pop */
	DT_BPF_FOP_AND,	    /* acc &= imm */
	DT_BPF_FOP_RSH,	    /* acc >>= imm */
	DT_BPF_FOP_LSH,	    /* acc <<= imm */
	DT_BPF_FOP_JEQ,	    /* acc == imm: skip the next a steps */
	DT_BPF_FOP_JNE,	    /* acc != imm: skip the next a steps */
	DT_BPF_FOP_DROP,    /* the probe does not fire */
};
typedef struct dt_bpf_filter_step {
	int32_t op;
	int32_t a;
	int64_t imm;
} dt_bpf_filter_step_t;

typedef struct dt_bpf_attach {
	size_t sz;
	int32_t kind; /* enum dt_bpf_attach_kind */
	const char *target;
	uint64_t offset;
	int32_t pid;
	int32_t cpu;
	uint64_t period_ns;
	/* Provider-specific filter, e.g. the syscall number on sys_enter. */
	int64_t filter;
	int32_t has_filter;

	/* ---- ABI 1.1 (read with DT_ABI_HAS) ---- */
	/*
	 * How the program's context yields arg0..arg9 (enum dt_bpf_ctx).
	 * RAW_TRACEPOINT and TRACEPOINT targets: DT_BPF_CTX_RAW unless the
	 * plugin says otherwise.
	 */
	int32_t ctx;
	/* DT_BPF_CTX_RAW: how many u64 arguments the raw tracepoint passes. */
	uint32_t nargs;
	/*
	 * DT_BPF_CTX_RAW: args[i] is raw argument argmap[i] (-1: 0), for
	 * i < 10, when has_argmap; else args[i] is raw argument i.
	 */
	int32_t argmap[10];
	int32_t has_argmap;

	/* ---- ABI 1.2 (read with DT_ABI_HAS) ---- */
	/*
	 * DT_BPF_CTX_RAW with has_filter and has_filter_arg: the probe fires
	 * only when (raw argument filter_arg >> filter_shift) & filter_mask
	 * equals `filter` (e.g. proc:::exit is sched_process_exit with
	 * group_dead, raw argument 1, equal to 1). Several probes may share a
	 * target with the same filter source and different values (exit and
	 * lwp-exit). An engine that cannot compute this filter must refuse
	 * the probe rather than fire it unfiltered.
	 */
	int32_t has_filter_arg;
	int32_t filter_arg;
	uint32_t filter_shift;
	uint64_t filter_mask;

	/* ---- ABI 1.5 (read with DT_ABI_HAS) ---- */
	/*
	 * An event of the probe's own, when `target` is shared with other
	 * probes told apart by `filter` (the syscall provider: raw tracepoint
	 * sys_enter for every system call, filtered by number). A program
	 * there runs for every event of the shared target, the probe's or
	 * not; a host that enables only a few of the probes sharing a target
	 * may attach each at its own event instead, which fires for it alone
	 * and unfiltered (tracepoint syscalls:sys_enter_X), at the price of
	 * a program per probe. own_kind DT_BPF_ATTACH_NONE: there is none.
	 *   own_kind, own_target   as kind and target; for
	 *                          DT_BPF_ATTACH_TRACEPOINT, own_offset is
	 *                          the event's tracefs ID (0: the host reads
	 *                          <tracefs>/events/<group>/<event>/id)
	 *   own_ctx, own_nargs,    how its context yields arg0..arg9, as ctx,
	 *   own_argmap             nargs and argmap (always given in full)
	 * own_target lives as long as `target`.
	 */
	int32_t own_kind;
	const char *own_target;
	uint64_t own_offset;
	int32_t own_ctx;
	uint32_t own_nargs;
	int32_t own_argmap[10];

	/* ---- ABI 1.6 (read with DT_ABI_HAS) ---- */
	/*
	 * DT_BPF_CTX_TP_RECORD (ctx, not own_ctx): how args[i] is made from
	 * the record's field at byte offset argmap[i] (the sdt provider: any
	 * tracefs event's fields, as its `format` file lays them out).
	 * 0 (and a host or plugin older than 1.6): the 8-byte value there.
	 * Else DT_BPF_TP_SIZE(n) (n = 1, 2, 4, 8) with at most one of:
	 *   (none)             the n-byte value, zero-extended, or
	 *                      sign-extended with DT_BPF_TP_SIGNED
	 *   DT_BPF_TP_ADDR     the field's kernel address (an array or a
	 *                      struct held in the record: char comm[16])
	 *   DT_BPF_TP_DATA_LOC the kernel address of a __data_loc field's
	 *                      data: the record plus the low 16 bits of the
	 *                      u32 there (n is 4)
	 *   DT_BPF_TP_REL_LOC  the same for __rel_loc: relative to the end of
	 *                      the u32 field
	 * An engine that cannot read a field this way refuses the probe.
	 */
	uint32_t argfmt[10];
	/*
	 * DT_BPF_CTX_USDT: where args[i] lives at the probe site, for i <
	 * nusdt_args (the rest are 0), as a stapsdt note's operands say.
	 */
	uint32_t nusdt_args;
	dt_usdt_arg_t usdt_args[10];
	/*
	 * UPROBE: the file offset, in `target`, of an is-enabled semaphore
	 * (a 16-bit counter) that the kernel increments in every process
	 * where the probe is placed and decrements when it is removed (the
	 * uprobe's reference counter); 0: none.
	 */
	uint64_t ref_ctr_offset;
	/*
	 * DT_BPF_CTX_RAW with has_filter: the filter's source as a short
	 * program, for filters that read through the raw arguments (the IP
	 * protocol in a struct sk_buff's header, two arguments at once):
	 * used when filter_nsteps > 0, instead of filter_arg and its shift
	 * and mask. The steps run in order over an accumulator and a stack
	 * of DT_BPF_FILTER_STACK values (jumps go forward only; a step's
	 * stack depth must not depend on the path to it); the probe fires
	 * when the accumulator at the end equals `filter` (DROP, or a load
	 * that faults: it does not). Probes sharing a target share a
	 * program only when their steps are equal.
	 */
	uint32_t filter_nsteps;
	dt_bpf_filter_step_t filter_steps[DT_BPF_FILTER_STEPS];

	/* ---- ABI 1.9 (read with DT_ABI_HAS) ---- */
	/*
	 * DT_BPF_CTX_USDT: args[10] and args[11] (a stapsdt note has up to
	 * 12 operands), for 10 + i < nusdt_args; usdt_args holds the first 10.
	 */
	dt_usdt_arg_t usdt_args_hi[2];
	/*
	 * A probe at the end of an interval that another event begins (the
	 * lockstat provider: a lock's wait, from lock:contention_begin to
	 * the same thread's lock:contention_end), where the Guide wants the
	 * time between them. With begin_kind DT_BPF_ATTACH_RAW_TRACEPOINT
	 * (and `kind` a RAW_TRACEPOINT with ctx DT_BPF_CTX_RAW), the host
	 * also attaches at raw tracepoint begin_target, which passes
	 * begin_nargs arguments, code that saves per thread and value of its
	 * raw argument begin_key the time and those arguments. At `target`
	 * the probe fires only where the same thread saved a begin whose key
	 * equals the end's raw argument end_key; that begin is then
	 * forgotten. The raw arguments that argmap and the filter read are
	 * then numbered
	 *   0 .. begin_nargs - 1                  the begin's
	 *   begin_nargs .. begin_nargs + nargs - 1  the end's
	 *   begin_nargs + nargs                   the time from begin to end (ns)
	 * (at most 8 in all). A later begin of the same thread and key
	 * replaces an earlier one (a mutex's spin, then its sleep: the
	 * sleep's). An engine that cannot join the two refuses the probe.
	 */
	int32_t begin_kind;
	const char *begin_target;
	uint32_t begin_nargs;
	int32_t begin_key;
	int32_t end_key;
	/*
	 * DT_BPF_CTX_RAW with arg_nsteps > 0: args[arg_from_steps] (< 10) is
	 * the result of the program arg_steps, which reads the raw arguments
	 * as a filter program does (ABI 1.6, the same steps and limits), in
	 * place of argmap's raw argument (proc:::exit's CLD_* reason, from
	 * the exiting task's exit_code). A DROP, or a load that faults, gives
	 * 0. An engine that cannot run the program refuses the probe.
	 */
	int32_t arg_from_steps;
	uint32_t arg_nsteps;
	dt_bpf_filter_step_t arg_steps[DT_BPF_FILTER_STEPS];
} dt_bpf_attach_t;

/* dt_bpf_attach_t (ABI 1.9): the most raw arguments a begin/end pair has. */
#define DT_BPF_PAIR_NARGS 8

/* dt_bpf_attach_t argfmt (ABI 1.6). */
#define DT_BPF_TP_SIZE(n) ((uint32_t)(n) & 0xffu)
#define DT_BPF_TP_SIZE_OF(f) ((f) & 0xffu)
#define DT_BPF_TP_SIGNED 0x100u
#define DT_BPF_TP_ADDR 0x200u
#define DT_BPF_TP_DATA_LOC 0x400u
#define DT_BPF_TP_REL_LOC 0x800u

/* How a bpf program reads a probe's arguments from its context. */
enum dt_bpf_ctx {
	DT_BPF_CTX_RAW = 0,	  /* raw tracepoint arguments (see argmap) */
	DT_BPF_CTX_SYS_ENTER = 1, /* raw_tp sys_enter: syscall args from pt_regs */
	DT_BPF_CTX_SYS_EXIT = 2,  /* raw_tp sys_exit: arg0 = arg1 = return value */
	DT_BPF_CTX_PERF = 3,	  /* perf event: arg0 kernel pc, arg1 user pc */
	/* ---- ABI 1.2 ---- */
	/* kprobe/uprobe at a function's entry: arg0..arg5 from pt_regs, by
	 * the platform's calling convention (x86_64: di si dx cx r8 r9). */
	DT_BPF_CTX_REGS = 4,
	/* kretprobe/uretprobe: arg0 = 0 (the returning instruction's offset
	 * is not known), arg1 = the return value (x86_64: ax). */
	DT_BPF_CTX_REGS_RETURN = 5,
	/* ---- ABI 1.3 ---- */
	/* kprobe/uprobe at an instruction past a function's entry (pid
	 * provider offset probes): arguments as DT_BPF_CTX_REGS, but the
	 * stack is not the one at entry (a uprobe with DT_BPF_CTX_REGS gets
	 * its caller inserted into ustack(), as illumos' entry probes do). */
	DT_BPF_CTX_REGS_INSN = 6,
	/* ---- ABI 1.5 ---- */
	/* A tracefs tracepoint's record (DT_BPF_ATTACH_TRACEPOINT: the
	 * program's context is the event's record as its `format` file lays
	 * it out): args[i] is the 8-byte field at byte offset argmap[i] (-1:
	 * 0), or read as argfmt[i] says (ABI 1.6); nargs is the record's
	 * size in bytes. args[i] for i at or past
	 * the probe's argument count (probe_args()) are 0: the host reads no
	 * field past them (the kernel refuses a program that reads past the
	 * event's last field). D's errno follows the probe's
	 * dt_probe_fire_t errno_src. */
	DT_BPF_CTX_TP_RECORD = 7,
	/* ---- ABI 1.6 ---- */
	/* uprobe at a USDT probe site (a stapsdt note): args[i] as
	 * usdt_args[i] locates it (dt_usdt_arg_t); the stack is not the one
	 * at a function's entry (as DT_BPF_CTX_REGS_INSN). */
	DT_BPF_CTX_USDT = 8,
};

typedef struct dt_plugin_bpf_ops {
	size_t sz;
	/*
	 * Describe how to attach `probe` (as reported by probes()). Fill *out
	 * (its sz is set by the host); strings must live until the next call
	 * or fini(). Return 0, or -ENOTSUP with host->log explaining what
	 * this kernel lacks.
	 */
	int (*attach)(void *state, const dt_probe_info_t *probe,
		      dt_bpf_attach_t *out);
} dt_plugin_bpf_ops_t;

/*
 * How a probe fires (ABI 1.4): an engine-neutral description, so that
 * neither the host nor an engine needs to know a provider by its name or
 * decode its cookie. The plugin's fires() op fills one per probe:
 *
 *   kind           what event makes the probe fire
 *     DT_FIRE_CONSUMER         the consumer itself (dtrace:::BEGIN, END,
 *                              ERROR); `consumer` says which
 *     DT_FIRE_TIMER            a clock: every `period_ns`, on every CPU
 *                              (per_cpu: profile-N) or on one (tick-N)
 *     DT_FIRE_TRACEPOINT       a tracefs tracepoint, target "group:event"
 *     DT_FIRE_RAW_TRACEPOINT   a raw tracepoint, target "event"
 *     DT_FIRE_KPROBE           a kernel function's entry, return or an
 *                              instruction in it (kprobe, fentry/fexit)
 *     DT_FIRE_UPROBE           the same in a user process
 *     DT_FIRE_SITE             a static site in the provider's own code
 *                              (SDT/USDT-style: its kernel half calls
 *                              dtrace_probe() there)
 *     DT_FIRE_NONE             not said (a plugin without fires())
 *   flow           which side of a function boundary the probe is on, for
 *                  -F (flowindent: illumos dt_flowindent()): ENTRY indents
 *                  ("->"), RETURN outdents ("<-"); with DT_FIRE_F_SYSCALL
 *                  the boundary is the system call's ("=>", "<=")
 *   errno_src      where D's `errno` comes from while the probe fires:
 *                  DT_ERRNO_RETURN_ARG0 is a return value in arg0 that is
 *                  an error when it lies in -4095..-1 (syscall:::return;
 *                  errno is its negation); otherwise errno is 0
 *   engines        DT_ENGINE_* of every engine that can run the probe on a
 *                  kernel that has what the probe needs (an engine may
 *                  still refuse it at enable time, saying why: the bpf hook
 *                  returning -ENOTSUP). The user engine runs no kernel
 *                  event: only CONSUMER probes and one-CPU TIMER probes.
 *
 * `target` (optional, may be NULL) names the event for humans and tools
 * ("sched:sched_process_exec", "do_sys_open"); it lives until the next
 * call or fini(). Fields a plugin leaves zero mean "none".
 */
enum dt_fire_kind {
	DT_FIRE_NONE = 0,
	DT_FIRE_CONSUMER,
	DT_FIRE_TIMER,
	DT_FIRE_TRACEPOINT,
	DT_FIRE_RAW_TRACEPOINT,
	DT_FIRE_KPROBE,
	DT_FIRE_UPROBE,
	DT_FIRE_SITE,
};

/* DT_FIRE_CONSUMER: which of the consumer's own probes. */
enum dt_fire_consumer {
	DT_CONSUMER_NONE = 0,
	DT_CONSUMER_BEGIN, /* before tracing starts (dtrace:::BEGIN) */
	DT_CONSUMER_END,   /* after it stops (dtrace:::END) */
	DT_CONSUMER_ERROR, /* where a fault is reported (dtrace:::ERROR) */
};

enum dt_flow {
	DT_FLOW_NONE = 0,
	DT_FLOW_ENTRY,	/* a function's (or system call's) entry */
	DT_FLOW_RETURN, /* its return */
};

enum dt_errno_src {
	DT_ERRNO_NONE = 0,    /* errno is 0 */
	DT_ERRNO_RETURN_ARG0, /* arg0 is a return value; -4095..-1 an error */
};

/* The engines (dt_probe_fire_t engines). */
#define DT_ENGINE_USER 0x1 /* the consumer's own process: no kernel event */
#define DT_ENGINE_BPF 0x2  /* BPF programs (the plugin's bpf table) */
#define DT_ENGINE_KMOD 0x4 /* dtrace.ko and the plugin's kernel half */

/* dt_probe_fire_t flags. */
/* The flow boundary is a system call's (illumos: -F prints => and <=). */
#define DT_FIRE_F_SYSCALL 0x1

typedef struct dt_probe_fire {
	size_t sz;
	int32_t kind;	    /* enum dt_fire_kind */
	int32_t consumer;   /* DT_FIRE_CONSUMER: enum dt_fire_consumer */
	uint64_t period_ns; /* DT_FIRE_TIMER: the interval */
	int32_t per_cpu;    /* DT_FIRE_TIMER: 1 on every CPU, 0 on one */
	int32_t flow;	    /* enum dt_flow */
	int32_t errno_src;  /* enum dt_errno_src */
	uint32_t engines;   /* DT_ENGINE_* */
	uint32_t flags;	    /* DT_FIRE_F_* */
	const char *target; /* the event's name, or NULL */
} dt_probe_fire_t;

/* Plugin flags. */
/*
 * The plugin owns every provider whose name is `name` followed by a
 * process ID (pid -> pid1234); probes() reports the full provider name.
 */
#define DT_PLUGIN_F_PER_PROCESS 0x1
/*
 * ABI 1.6: the plugin serves providers of any name that no other plugin
 * serves (USDT: python1234, postgresql, ... from the objects' stapsdt
 * notes); probes() reports the full provider names. It is asked about a
 * literal provider that is no other plugin's, and about a provider glob
 * or "" only when processes were given (-p, -c). Needs DT_PLUGIN_NOTE.
 */
#define DT_PLUGIN_F_ANY_PROVIDER 0x2

/* The operations table a plugin returns from its entry function. */
typedef struct dt_plugin_ops {
	size_t sz;
	uint32_t abi_major; /* DT_PLUGIN_ABI_MAJOR the plugin was built with */
	uint32_t abi_minor;
	const char *name; /* provider name, or the family prefix */
	const char *description; /* one line, for humans */
	dt_pattr_t attr;
	uint32_t priv;	/* DT_PRIV_* */
	uint32_t flags; /* DT_PLUGIN_F_* */

	/*
	 * init: prepare for queries. *state is handed back to every other
	 * function. Return 0 or a negative errno; on failure the provider is
	 * skipped with a warning.
	 */
	int (*init)(const dt_plugin_host_t *host, void **state);
	void (*fini)(void *state);

	/*
	 * probes: call cb once per probe that may match `query` (see
	 * dt_probe_query_t). Return 0 or a negative errno; a non-zero return
	 * from cb stops the walk (and probes() then returns 0).
	 */
	int (*probes)(void *state, const dt_probe_query_t *query,
		      dt_probe_cb cb, void *arg);

	/*
	 * probe_args: call cb once per argument of `probe`, in order of ndx.
	 * A probe without arguments makes no call. May be NULL.
	 */
	int (*probe_args)(void *state, const dt_probe_info_t *probe,
			  dt_arg_cb cb, void *arg);

	const dt_plugin_kmod_ops_t *kmod; /* NULL until the provider has one */
	const dt_plugin_bpf_ops_t *bpf;	  /* NULL until the provider has one */

	/* ---- ABI 1.4 (read with DT_ABI_HAS) ---- */
	/*
	 * fires: describe how `probe` (as reported by probes()) fires: fill
	 * *out (zeroed by the host, its sz set; see dt_probe_fire_t). Return
	 * 0 or a negative errno (-ENOENT: not a probe of this plugin). May be
	 * NULL: the host then assumes kind DT_FIRE_NONE, the engines whose
	 * tables (kmod, bpf) the plugin has, no errno, and the flow illumos
	 * derives from the probe's name (entry, return, *-entry, *-return).
	 */
	int (*fires)(void *state, const dt_probe_info_t *probe, dt_probe_fire_t *out);
} dt_plugin_ops_t;

/*
 * The one symbol a plugin exports. `host` is valid until fini(); the
 * function must be cheap and must not fail except by returning NULL.
 */
typedef const dt_plugin_ops_t *(*dt_plugin_entry_fn)(
	const dt_plugin_host_t *host);

#if defined(__GNUC__)
#define DT_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define DT_PLUGIN_EXPORT
#endif

/* The entry point every plugin defines (C linkage, default visibility). */
DT_PLUGIN_EXPORT const dt_plugin_ops_t *dtrace_plugin_entry(
	const dt_plugin_host_t *host);

/* Define the entry function: DT_PLUGIN_DEFINE(my_ops); */
#define DT_PLUGIN_DEFINE(ops)                                                 \
	DT_PLUGIN_EXPORT const dt_plugin_ops_t *dtrace_plugin_entry(          \
		const dt_plugin_host_t *host)                                 \
	{                                                                     \
		(void)host;                                                   \
		return &(ops);                                                \
	}

/*
 * The probes a plugin can have, readable without loading it (optional;
 * not a field of any struct, so any ABI 1.x host may read it). The consumer reads this ELF note from the file (as systemd
 * reads its .note.dlopen) before it decides to dlopen() the plugin:
 *
 *   DT_PLUGIN_NOTE(flags, "names");
 *
 * `flags` are the ops table's DT_PLUGIN_F_*; `names` is a list of DTrace
 * globs separated by spaces that every probe name the plugin reports
 * matches ("entry return", "profile-* tick-*", "*" for any). A plugin is
 * then opened only for a description whose probe name could be one of
 * them and whose provider could be the plugin's (its file name; with
 * DT_PLUGIN_F_PER_PROCESS, a provider glob or "" only when processes were
 * given): `dtrace -n BEGIN` opens no plugin at all. A plugin without the
 * note is opened for every description that could name its provider, and
 * `dtrace -l` opens every plugin. A note that leaves out a name the plugin
 * reports hides those probes from descriptions that name them without the
 * provider: keep the list whole.
 */
#define DT_PLUGIN_NOTE_OWNER "DTrace"
#define DT_PLUGIN_NOTE_PROBES 1 /* desc: uint32_t flags, then the names */

#define DT_PLUGIN_NOTE(flags, names)                                          \
	__attribute__((used, section(".note.dtrace"), aligned(4)))             \
	static const struct {                                                  \
		uint32_t namesz, descsz, type;                                 \
		char name[8];                                                  \
		uint32_t note_flags;                                           \
		char note_names[(sizeof(names) + 3) & ~(size_t)3];             \
	} dt_plugin_note_ = {sizeof(DT_PLUGIN_NOTE_OWNER),                     \
			     (uint32_t)(sizeof(uint32_t) + sizeof(names)),    \
			     DT_PLUGIN_NOTE_PROBES, DT_PLUGIN_NOTE_OWNER, (flags), \
			     names}

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_PLUGIN_H */
