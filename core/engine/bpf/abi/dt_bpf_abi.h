/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * dt_bpf_abi.h - what the bpf engine's three parts agree on: the code the
 * translator emits (translate.hpp), the BPF library it calls (lib/), and
 * the runtime that creates the maps, loads, attaches and consumes
 * (bpf_engine.cc). Included by BPF C (clang -target bpf) and by C++.
 *
 *   probe fires ─► program for (attach kind, target)        one per target
 *                    prologue: m = dt_mem[cpu]; nesting guard; activity
 *                              check; m->args[], m->filter, m->timestamp
 *                    for each clause with ECBs here, in EPID order:
 *                      epid = fixed, or dt_epids_<n>[m->filter] (0: skip)
 *                      predicate, actions ─► m->buf ─► dt_ring sample
 *                      aggregations ─► dt_agg_<id> (per-CPU hash)
 *                      fault ─► dt_ring fault sample; ERROR clauses
 *                    epilogue: m->active = 0
 *
 * Addresses. DIF values are 64-bit addresses in one flat space. Memory
 * DTrace owns lives in BPF maps, so it is named by a tagged address that
 * no kernel or user pointer can have (the non-canonical hole on x86_64):
 *   DT_BPF_TAG_SCRATCH | off   m->scratch[off]   (this CPU's dt_mem)
 *   DT_BPF_TAG_STRTAB  | off   dt_strtab[0][off] (every DIFO's strings)
 *   DT_BPF_TAG_GLOBALS | off   dt_globals[0][off] (by-ref global storage)
 * Every other address is the kernel's (ld*, bpf_probe_read_kernel) or the
 * current process's (uld*, copyin*, bpf_probe_read_user). A load from a
 * tagged address outside its region faults DTRACEFLT_BADADDR.
 */
#ifndef DT_BPF_ABI_H
#define DT_BPF_ABI_H

#ifdef __bpf__
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;
#else
#include <stdint.h>
#endif

#define DT_BPF_TAG_MASK 0xff00000000000000ULL
#define DT_BPF_TAG_SCRATCH 0x4000000000000000ULL
#define DT_BPF_TAG_STRTAB 0x4100000000000000ULL
#define DT_BPF_TAG_GLOBALS 0x4200000000000000ULL
#define DT_BPF_TAG_OFF(a) ((a) & ~DT_BPF_TAG_MASK)

/* Region sizes: powers of two, so code can mask offsets for the verifier. */
#define DT_BPF_BUF_SIZE 16384	  /* largest firing (clause::size) */
#define DT_BPF_SCRATCH_SIZE 65536 /* scratch: strings, tuples, alloca */
#define DT_BPF_STRTAB_SIZE 65536  /* all DIFOs' string tables */
#define DT_BPF_GLOBALS_MAX 65536  /* dt_globals value, at most */
#define DT_BPF_LOCALS_SIZE 8192	  /* clause-locals (this->), scalars+by-ref */
#define DT_BPF_KEY_SIZE 8192	  /* dvar keys (dt_tls, dt_dvars), at most */
#define DT_BPF_AGG_KEY_SIZE 16384 /* aggregation keys, at most (m->key) */
/*
 * Strings: strsize (bytes, the NUL included) at most DT_BPF_STRSIZE_MAX,
 * -x strsize=4096. Strings move by helper calls (bpf_probe_read_*_str), and
 * the word-at-a-time loops (comparisons, strchr, toupper) walk at most
 * strsize / 8 + 1 words; the library's byte-at-a-time loops (strstr, index,
 * rindex, strtoll, basename, dirname, strtok, cleanpath; copyinargs, whose
 * word loop's body is costly) are bounded by
 * DT_BPF_STRFUNC_MAX for the verifier, and the translator refuses them in
 * a program whose strsize is larger (codegen_subr.cc).
 */
#define DT_BPF_STRSIZE_MAX 4097
#define DT_BPF_STRFUNC_MAX 1024
#define DT_BPF_NARGS 10
#define DT_BPF_NARGS_USDT 12 /* USDT probes: args_hi too */

/*
 * ustack() for DWARF unwinding (dt_rec_ustack_regs; the layout is
 * dtrace/program.hpp's k_ustack_capture_*): pid, magic | bytes copied, ip,
 * sp, bp, then the user stack from sp.
 */
#define DT_BPF_USTACK_MAGIC 0xd7ace00000000000ULL
#define DT_BPF_USTACK_HDR 40
#define DT_BPF_USTACK_CHUNK 256 /* copied in aligned pieces: a page's end stops it */

/* Fault state (DTRACEFLT_* codes from uapi/dtrace/actions.h / dif.h). */
struct dt_bpf_fault_state {
	uint32_t code;	 /* 0: no fault */
	uint32_t action; /* 1-based action index, 0: predicate (fire.cc rule) */
	int64_t offset;	 /* DIF byte offset of the faulting instruction, -1 */
	uint64_t illval;
};

/*
 * dt_mem: ARRAY map, max_entries = number of possible CPUs, indexed by
 * bpf_get_smp_processor_id() (a PERCPU_ARRAY value is limited to 32 KiB).
 * Only the program running on that CPU touches its entry; `active` stops a
 * program that interrupts another on the same CPU (perf events in IRQ
 * context) from using it: that firing is counted in nested_drops instead.
 */
/* dt_bpf_mem.ktracer: the text ranges of a raw tracepoint's machinery. */
#define DT_BPF_KTRACER 3

struct dt_bpf_mem {
	uint32_t active;
	uint32_t cpu;
	uint64_t epid;		     /* the ECB running now */
	uint64_t filter;	     /* e.g. the syscall number */
	uint64_t timestamp;	     /* bpf_ktime_get_ns() at the firing */
	uint64_t args[DT_BPF_NARGS]; /* arg0..arg9 */
	/*
	 * args[10] and args[11] of a USDT probe (a stapsdt note has up to 12
	 * operands), right after args[] so that args[i] reads either; other
	 * probes never read them (their args[] index is checked against
	 * DT_BPF_NARGS).
	 */
	uint64_t args_hi[DT_BPF_NARGS_USDT - DT_BPF_NARGS];
	uint64_t errno_;	     /* syscall:::return: errno, else 0 */
	uint64_t pc;		     /* DIF byte offset of the current instruction */
	uint64_t action;	     /* 1-based action index being run */
	struct dt_bpf_fault_state fault;
	uint64_t scratch_used;	     /* bytes of scratch handed out */
	uint64_t tuple_used;	     /* bytes of key staged by dt_tuple_push */
	uint64_t tuple_n;	     /* elements pushed */
	uint64_t nested_drops;	     /* firings refused by `active` */
	/*
	 * strtok()'s position for strtok(NULL, ...), 0 = none: it lives for
	 * the probe firing, across its clauses (subr_tok.bpf.c). The
	 * prologue clears it; strtok_outer keeps the firing's while
	 * dtrace:::ERROR's clauses run with their own.
	 */
	uint64_t strtok_addr;
	uint64_t strtok_outer;
	uint64_t regs[8];	     /* spill area the translator may use */
	/*
	 * The sample being built: struct dt_bpf_sample, then the firing
	 * (dtrace_rechdr_t + records, clause::size bytes).
	 */
	uint8_t buf[DT_BPF_BUF_SIZE + 16];
	uint8_t locals[DT_BPF_LOCALS_SIZE]; /* this-> scalars and by-ref */
	/*
	 * Aggregation and dvar key staging. Aggregation keys may use all of
	 * it (whole ustack() captures: docs/ustack.md), dvar keys the first
	 * DT_BPF_KEY_SIZE bytes. Its end lies beyond the BPF offset field's
	 * 32 KiB: the translator reaches the words there through a pointer.
	 */
	uint8_t key[DT_BPF_AGG_KEY_SIZE];
	uint8_t scratch[DT_BPF_SCRATCH_SIZE];
	/*
	 * Appended (translator): the number of D arguments of the
	 * dt_subr_* call being made (arguments not given are passed as 0),
	 * so that substr(s, i) and substr(s, i, 0) differ.
	 */
	uint64_t subr_nargs;
	/*
	 * Appended (bpf2): write-through for by-reference dynamic variables.
	 * A load of a struct-valued thread-local or associative array element
	 * gives a scratch copy; the library remembers it here (wb_map: 0
	 * none, 1 dt_tls, 2 dt_dvars, 3 a clause-local; the copy at scratch
	 * [wb_lo, wb_hi); the map key in wb_key, for a clause-local the
	 * offset of its storage in locals[] as a u64), and a store into that
	 * range (dt_st) writes the
	 * copy back to the map, as a store through illumos' pointer into the
	 * dynamic variable would. The translator clears wb_map per ECB.
	 */
	uint64_t wb_map;
	uint64_t wb_lo;
	uint64_t wb_hi;
	uint8_t wb_key[DT_BPF_KEY_SIZE];
	/*
	 * Appended: at a uprobe on a function's first instruction (pid
	 * provider entry probes), the return address at the user stack
	 * pointer, else 0 (the prologue sets it for every firing). The frame
	 * pointer chain does not hold the caller yet, so ustack(), ucaller
	 * and ustackdepth insert it after the pc, as illumos'
	 * dtrace_getupcstack() does under CPU_DTRACE_ENTRY.
	 */
	uint64_t uentry_ret;
	/*
	 * Appended: at a kernel function's entry or return (fentry, fexit,
	 * kprobe, kretprobe: the fbt provider) the function's address
	 * (bpf_get_func_ip; 1 where that is 0), else 0. The kernel stack
	 * there begins with the tracer's frames (the program, its
	 * trampoline or kprobe handler) and the function's own entry; stack(), caller and stackdepth skip
	 * them so that the first frame is the caller, as illumos' aframes do.
	 */
	uint64_t kfunc_ip;
	/*
	 * Appended: at a raw tracepoint, the kernel text of the tracing
	 * machinery between the tracepoint's call site and the program, as
	 * {start, size} pairs (size 0: none): bpf_trace_run1..12, the
	 * tracepoint's __bpf_trace_<tp> and __traceiter_<tp> (which run
	 * depends on the kernel and on how many probes the tracepoint has).
	 * stack(), caller and stackdepth skip the frames up to the last one
	 * in them, so that the first frame is the tracepoint's call site, as
	 * the kmod engine's (an SDT probe's in illumos). ktracer[1] == 0:
	 * none given (every other kind of probe).
	 */
	uint64_t ktracer[DT_BPF_KTRACER * 2];
};

/* Every dt_ring sample begins with this. */
enum dt_bpf_sample_kind {
	DT_BPF_SAMPLE_FIRING = 1, /* then the firing: rechdr + records */
	DT_BPF_SAMPLE_FAULT = 2,  /* then struct dt_bpf_fault_sample */
};

struct dt_bpf_sample {
	uint32_t cpu;
	uint32_t kind; /* enum dt_bpf_sample_kind */
};

struct dt_bpf_fault_sample {
	uint32_t epid;
	uint32_t action;
	int64_t offset;
	uint64_t code;
	uint64_t illval;
};

/* dt_status: ARRAY, 1 entry, shared by every CPU. */
enum dt_bpf_activity {
	DT_BPF_INACTIVE = 0, /* before BEGIN: only BEGIN runs */
	DT_BPF_ACTIVE = 1,   /* BEGIN ran: every probe runs */
	DT_BPF_DRAINING = 2, /* exit() ran: only END (and ERROR) run */
	DT_BPF_STOPPED = 3,  /* END ran: nothing runs */
};

struct dt_bpf_status {
	uint64_t activity; /* enum dt_bpf_activity */
	uint64_t exit_cpu;
	/*
	 * Appended for the library's built-ins (lib/builtins.bpf.c); the
	 * runtime fills them before BEGIN. There are no CO-RE relocations, so
	 * task_struct offsets come from /sys/kernel/btf/vmlinux; 0 = unknown
	 * (ppid, vtimestamp and progenyof() then fault ILLOP).
	 */
	int64_t wall_offset;	   /* CLOCK_REALTIME - CLOCK_BOOTTIME, ns */
	uint32_t task_real_parent; /* offsetof(struct task_struct, real_parent) */
	uint32_t task_tgid;	   /* offsetof(struct task_struct, tgid) */
	uint32_t task_sum_exec;	   /* offsetof(task_struct, se) + offsetof(sched_entity, sum_exec_runtime) */
	/*
	 * nspid, nstid, nsppid (docs/containers.md): a thread's struct pid
	 * (task_struct.thread_pid) numbers it in each pid namespace from the
	 * root (level 0) to its own (pid.level): pid.numbers[level] is a
	 * struct upid { nr, ns }. upid_size 0 = unknown (they fault ILLOP).
	 */
	uint32_t task_thread_pid;   /* offsetof(struct task_struct, thread_pid) */
	uint32_t task_group_leader; /* offsetof(struct task_struct, group_leader) */
	uint32_t pid_level;	    /* offsetof(struct pid, level) */
	uint32_t pid_numbers;	    /* offsetof(struct pid, numbers) */
	uint32_t upid_size;	    /* sizeof(struct upid) */
	uint32_t upid_nr;	    /* offsetof(struct upid, nr) */
	uint32_t upid_ns;	    /* offsetof(struct upid, ns) */
	/*
	 * The maxframes option (0: unset): stackdepth and ustackdepth count
	 * at most this many frames, as stack() and ustack() record at most.
	 */
	uint32_t maxframes;
	/*
	 * mutex_owned(), mutex_owner(), mutex_type_*() (lib/subr_lock.bpf.c):
	 * the offset of struct mutex's owner word and the bits of it that
	 * are the owning task_struct pointer (the others are flags: ~0x07,
	 * MUTEX_FLAGS; ~0x01 for PREEMPT_RT's rt_mutex_base). Mask 0 =
	 * unknown (no BTF): they fault ILLOP.
	 */
	uint32_t mutex_owner;
	uint64_t mutex_owner_mask;
	/*
	 * Appended for d_path() (lib/subr_dpath.bpf.c): where the kernel
	 * keeps what Linux's d_path() (fs/d_path.c) reads, from vmlinux BTF.
	 * Filled only for a program that calls d_path() (layout::d_path);
	 * dp_ok 0 = unknown (d_path() then faults ILLOP).
	 */
	struct dt_bpf_dpath_offsets {
		uint32_t dp_ok;
		uint32_t path_mnt;	  /* struct path: mnt (a struct vfsmount *) */
		uint32_t path_dentry;	  /* struct path: dentry */
		uint32_t d_parent;	  /* struct dentry */
		uint32_t d_name;	  /* d_name.name: struct qstr's name */
		uint32_t d_hash_pprev;	  /* d_hash.pprev: NULL when unhashed */
		uint32_t d_op;		  /* const struct dentry_operations * */
		uint32_t d_inode;
		uint32_t d_sb;
		uint32_t d_dname;	  /* struct dentry_operations */
		uint32_t i_ino;		  /* struct inode */
		uint32_t s_magic;	  /* struct super_block */
		uint32_t s_type;
		uint32_t fst_name;	  /* struct file_system_type: name */
		uint32_t mnt_parent;	  /* struct mount (fs/mount.h) */
		uint32_t mnt_mountpoint;
		uint32_t mnt_mnt;	  /* the struct vfsmount it embeds */
		uint32_t mnt_root;	  /* struct vfsmount */
		uint32_t task_fs;	  /* struct task_struct: fs */
		uint32_t fs_root;	  /* struct fs_struct: root (a struct path) */
	} dpath;
};

/* dt_cpustate: PERCPU_ARRAY, 1 entry: drop counters since the start. */
struct dt_bpf_cpustate {
	uint64_t drops;	      /* principal: dt_ring full */
	uint64_t agg_drops;   /* aggregation map full */
	uint64_t dyn_drops;   /* dt_tls / dt_dvars full */
	uint64_t spec_drops;
	uint64_t dbl_errors;  /* faults in ERROR clauses */
	uint64_t nested;      /* see dt_bpf_mem::active */
	/* chill(): illumos cpu_dtrace_chillmark / cpu_dtrace_chilled (ns) */
	uint64_t chillmark;
	uint64_t chilled;
};

/* dt_probes: ARRAY keyed by EPID: the probe's names, for probe* built-ins. */
#define DT_BPF_PROBE_NAME 64
#define DT_BPF_PROBE_FUNC 128
struct dt_bpf_probe {
	char prov[DT_BPF_PROBE_NAME];
	char mod[DT_BPF_PROBE_NAME];
	char func[DT_BPF_PROBE_FUNC];
	char name[DT_BPF_PROBE_NAME];
	uint32_t id; /* the registry's probe id (DIF_VAR_ID) */
	uint32_t pad;
};

/*
 * dt_tls (self->x) and dt_dvars (assoc arrays): HASH maps. Key: this
 * header, then (dt_dvars only) the tuple as dt_tuple_push staged it,
 * zero-padded to the map's key size. Value: the variable's value (8 bytes
 * by value, or the by-ref size), zero-padded to the map's value size.
 */
struct dt_bpf_dvar_key {
	uint32_t varid;
	uint32_t pad;
	uint64_t tid; /* bpf_get_current_pid_tgid(); 0 for global assoc arrays */
};

/* Map names (the library refers to maps by these symbols; see lib/). */
#define DT_BPF_MAP_MEM "dt_mem"
#define DT_BPF_MAP_STATUS "dt_status"
#define DT_BPF_MAP_CPUSTATE "dt_cpustate"
#define DT_BPF_MAP_RING "dt_ring"
#define DT_BPF_MAP_PROBES "dt_probes"
#define DT_BPF_MAP_STRTAB "dt_strtab"
#define DT_BPF_MAP_GLOBALS "dt_globals"
#define DT_BPF_MAP_TLS "dt_tls"
#define DT_BPF_MAP_DVARS "dt_dvars"
#define DT_BPF_MAP_AGGEN "dt_aggen" /* appended: the aggregations' generation */

/*
 * dt_agg_<aggid>: PERCPU_HASH, key and value sizes from plan() (layout::
 * aggs). Key: {uint32_t aggid, uint32_t generation}, then the
 * aggregation's keys. Value: the aggregation's actions.h words (count: 1;
 * avg: count, total; stddev: count, total, 128-bit sum of squares;
 * quantize and friends: the buckets), on each CPU.
 *
 * Snapshots are exact, as illumos' aggregation buffer switch: programs
 * write the generation that dt_aggen (ARRAY[1], a uint32_t written only by
 * the runtime) names into every key they update. A snapshot moves dt_aggen
 * on, waits until no program can still be using the old number (the
 * kernel's grace period: aggs.hpp), then reads every key of an older
 * generation with all CPUs' values, deletes it (no program can touch it
 * any more), folds the CPUs (add, or min / max) and hands the consumer the
 * result as a delta. Keys of the new generation are left for the next.
 *
 * A key created on one CPU reads as zeroes on the others, which for min()
 * and max() would be a value; so their one word is stored XOR-ed with the
 * function's identity, and a zero word means "no value here":
 *   stored = value ^ DT_BPF_AGG_MIN_BIAS   (min; identity INT64_MAX)
 *   stored = value ^ DT_BPF_AGG_MAX_BIAS   (max; identity INT64_MIN)
 * (added by the runtime helper; the translator emits the same encoding).
 */
#define DT_BPF_AGG_MIN_BIAS 0x7fffffffffffffffULL
#define DT_BPF_AGG_MAX_BIAS 0x8000000000000000ULL

/*
 * Appended (speculations; lib/spec.bpf.c, spec_buffer.hpp).
 *
 * dt_spec: ARRAY of nspec + 1 struct dt_bpf_spec. Entry 0 is the header:
 * state = nspec, unavail = speculation() calls that found no free
 * speculation (atomic). Entry id (1..nspec): state counts the changes of
 * speculation id and is odd while it is active. speculation() makes an
 * even entry odd (compare-and-swap: whoever swaps owns the id); commit()
 * and discard() make it even again, so the id is free at once, and the
 * consumer sorts late data out by generation (the odd state value):
 *
 *   firing after speculate(id) ─► DT_BPF_SAMPLE_SPEC: the firing, then
 *                                  struct dt_bpf_spec_tag
 *   commit(id) / discard(id)   ─► DT_BPF_SAMPLE_SPEC_END:
 *                                  struct dt_bpf_spec_end (after the
 *                                  committing clause's own firing)
 *
 * The consumer holds each (id, gen)'s firings, at most specsize bytes per
 * CPU (beyond: speculative drops), until the generation's SPEC_END:
 * commit moves them into the principal buffer there, discard drops them;
 * a firing of an ended generation that arrives after its end (written on
 * another CPU meanwhile) follows the outcome. A sample the ring cannot
 * take counts a speculative drop (dt_bpf_cpustate::spec_drops).
 */
#define DT_BPF_MAP_SPEC "dt_spec"
#define DT_BPF_NSPEC_MAX 256 /* largest nspec (speculation() scans them all) */
#define DT_BPF_SAMPLE_SPEC 3
#define DT_BPF_SAMPLE_SPEC_END 4

struct dt_bpf_spec {
	uint64_t state;	  /* entry 0: nspec; else odd while active */
	uint64_t unavail; /* entry 0 only */
};

struct dt_bpf_spec_tag {
	uint32_t id;
	uint32_t gen; /* the low 32 bits of the state while active */
};

struct dt_bpf_spec_end {
	uint32_t id;
	uint32_t gen;
	uint32_t commit; /* 1: commit(), 0: discard() */
	uint32_t pad;
};

#endif /* DT_BPF_ABI_H */
