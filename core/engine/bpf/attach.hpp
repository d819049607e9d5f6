// SPDX-License-Identifier: MIT
//
// attach.hpp - where a bpf program is attached, from the provider plugin's
// dt_bpf_attach_t (plugin.h), and the attaching itself:
//
//   RAW_TRACEPOINT  bpf_raw_tracepoint_open(target)        one fd
//   PERF_EVENT      perf_event_open(cpu-clock, period) on `cpu`, or one
//                   per online CPU (cpu -1); PERF_EVENT_IOC_SET_BPF
//   UPROBE          perf_event_open(uprobe PMU, file, offset) for the
//   URETPROBE       process (or one per CPU for every process); a kprobe
//                   program with pt_regs context (x86_64 only); with a
//                   USDT semaphore, its offset as the reference counter
//   TRACEPOINT      perf_event_open(tracepoint, the event's tracefs ID) on
//                   CPU 0 (the program runs wherever the event fires);
//                   PERF_EVENT_IOC_SET_BPF
//   FENTRY, FEXIT   a BPF_PROG_TYPE_TRACING program loaded for the
//                   function's BTF id (load_target_of()), attached with
//                   bpf_link_create(): a BPF trampoline; its context is
//                   the u64 array of the function's arguments (fexit: and
//                   the return value after them), read as a raw
//                   tracepoint's (DT_BPF_CTX_RAW, nargs slots). Where the
//                   kernel refuses the program or the trampoline for a
//                   function, the engine attaches a kprobe or kretprobe
//                   there instead (kprobe_fallback()).
//   KPROBE_MULTI    (engine-made, never a plugin's answer) many KPROBE
//                   or KRETPROBE points of one enabling in one program,
//                   attached with one BPF_TRACE_KPROBE_MULTI link (an
//                   fprobe: one ftrace update for all of them) over the
//                   functions' names, the cookie of each its index in
//                   the list (merge_kprobes()); kind stays KPROBE or
//                   KRETPROBE, `multi` holds the names
//   UPROBE_MULTI    (engine-made) many UPROBE or URETPROBE points in one
//                   object of one process, of one enabling, in one
//                   program, attached with one BPF_TRACE_UPROBE_MULTI link
//                   (Linux 6.6) over their file offsets, the cookie of
//                   each its index in the list (merge_uprobes()): one
//                   link where a glob such as pid$target:libc.so.6::entry
//                   would take a perf event descriptor per function; kind
//                   stays UPROBE or URETPROBE, `multi_offsets` holds the
//                   offsets
//   CONSUMER        never attached: run_on_cpu() (BEGIN/END)
//
// Closing the returned fds detaches. ECBs whose attach points compare
// equal share one program (the engine groups by attach_point): all of
// syscall:::entry is one sys_enter program, attached and detached once.
//
// A probe whose target is shared and filtered may also have an event of
// its own (plugin.h ABI 1.5, own_point_of()): when only a few filter
// values of a shared point are enabled (use_own_points()), each probe is
// attached at its own event instead, so that the other events of the
// shared target (every other system call of the machine) run no program.
#pragma once

#include "fd.hpp"
#include "translate.hpp"

#include <dtrace/plugin.h>

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace dt::engines::bpf {

struct attach_point {
	int32_t kind = DT_BPF_ATTACH_NONE; // enum dt_bpf_attach_kind
	std::string target;
	uint64_t offset = 0;
	int32_t pid = -1;
	int32_t cpu = -1;
	uint64_t period_ns = 0;
	int32_t ctx = DT_BPF_CTX_RAW; // enum dt_bpf_ctx
	uint32_t nargs = 0;
	std::array<int32_t, 10> argmap{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	// The filter's source (plugin.h ABI 1.2), RAW contexts: m->filter =
	// (raw argument filter_arg >> filter_shift) & filter_mask; -1: none.
	// Part of the attach point, so that ECBs with different sources (or
	// none) get programs of their own.
	int32_t filter_arg = -1;
	uint32_t filter_shift = 0;
	uint64_t filter_mask = 0;
	// Or the filter's program (plugin.h ABI 1.6): {op, a, imm} per step.
	std::vector<std::array<int64_t, 3>> filter_steps;
	// DT_BPF_CTX_TP_RECORD: where D's errno comes from (enum
	// dt_errno_src, from the probe's fires() description).
	int32_t errno_src = DT_ERRNO_NONE;
	// DT_BPF_CTX_TP_RECORD: how each field becomes args[i] (plugin.h ABI
	// 1.6 argfmt; 0: the 8-byte value).
	std::array<uint32_t, 10> argfmt{};
	// DT_BPF_CTX_USDT (plugin.h ABI 1.6): where each argument lives; and
	// for uprobes the file offset of the is-enabled semaphore (0: none).
	std::array<usdt_loc, k_usdt_nargs> usdt{};
	uint64_t ref_ctr_offset = 0;
	// Appended (kprobe_multi): non-empty: a KPROBE or KRETPROBE point on
	// every one of these functions through one kprobe_multi link; the
	// attach cookie of multi[i] is i, the program's filter value.
	std::vector<std::string> multi;
	// Appended (uprobe_multi): non-empty: an UPROBE or URETPROBE point at
	// every one of these offsets of `target` (for process `pid`) through
	// one uprobe_multi link; the cookie of multi_offsets[i] is i.
	std::vector<uint64_t> multi_offsets;
	// Appended (plugin.h ABI 1.9): non-empty: the raw tracepoint that
	// begins the interval this point ends (pair.hpp), its arity and the
	// two raw arguments that must be equal.
	std::string begin_target;
	uint32_t begin_nargs = 0;
	int32_t begin_key = -1;
	int32_t end_key = -1;
	// Appended (plugin.h ABI 1.9): args[arg_steps_index] from a program
	// over the raw arguments ({op, a, imm} per step, as filter_steps).
	int32_t arg_steps_index = -1;
	std::vector<std::array<int64_t, 3>> arg_steps;

	// The raw arguments argmap and the filter number: nargs, or with a
	// begin, the begin's, the end's and the time between them.
	[[nodiscard]] uint32_t raw_count() const
	{
		return begin_target.empty() ? nargs : begin_nargs + nargs + 1;
	}

	auto operator<=>(const attach_point &) const = default;
	// For messages: "raw tracepoint sys_enter", "perf event every 1000000 ns".
	[[nodiscard]] std::string describe() const;
};

// The plugin's answer (ABI 1.1 and 1.2 fields read only when present),
// without the filter's value.
[[nodiscard]] attach_point attach_point_of(const dt_bpf_attach_t &a);

// The probe's own event (ABI 1.5 own_* fields), or kind
// DT_BPF_ATTACH_NONE when the plugin names none.
[[nodiscard]] attach_point own_point_of(const dt_bpf_attach_t &a);

// A shared sys_enter/sys_exit program with at most this many distinct
// system calls enabled (and nothing unfiltered) tests the number first
// (probe_spec::early_filters).
constexpr size_t k_early_filters_max = 16;

// DT_BPF_CTX_TP_RECORD: only the probe's `nargs` arguments are read
// (plugin.h), and the record's size follows.
void limit_record_args(attach_point &p, size_t nargs);

// Up to this many distinct filter values on one shared attach point, the
// probes are attached at their own events (when every one has one): a
// program per probe costs a load and an attachment each, a shared one
// runs for every event of its target.
//
// 0 for now, from the measurements in docs/perf.md (kernel 6.18): on
// its own tracepoint (a perf tracepoint event) a syscall probe costs
// its system call ~20 ns more than on the shared raw tracepoint with the
// early filter (probe_spec::early_filters), and closing each such event
// waits 60-90 ms for the kernel's RCU grace periods (a one-probe command
// took 150-220 ms instead of 65-80 ms). The early filter leaves the other
// system calls ~15-20 ns each, which the own events would save.
constexpr size_t k_own_points_max = 0;

// Whether the probes of one shared point, with these filter values (one
// per enabled probe, repeats allowed), should be attached at their own
// events: every one has one and there are few distinct values.
[[nodiscard]] bool use_own_points(const std::vector<uint32_t> &filters, bool all_have_own);

// Can this engine load and attach programs for `p`? Empty if so, else why
// not ("... is not supported by the bpf engine yet").
[[nodiscard]] std::string unsupported(const attach_point &p);

// Why a filter program (plugin.h ABI 1.6) cannot run over a raw
// tracepoint of `nargs` arguments, or "" when it can.
[[nodiscard]] std::string filter_steps_problem(const std::vector<std::array<int64_t, 3>> &steps,
					       uint32_t nargs);

[[nodiscard]] enum bpf_prog_type prog_type_of(const attach_point &p);
[[nodiscard]] ctx_kind ctx_kind_of(const attach_point &p);

// What a program must be loaded for (BPF_PROG_TYPE_TRACING: the attach
// type and the function's BTF id); {} for every other kind.
struct load_target {
	enum bpf_attach_type type = static_cast<enum bpf_attach_type>(0);
	uint32_t btf_id = 0;
};
[[nodiscard]] load_target load_target_of(const attach_point &p);

// More fentry/fexit attach points than this in one enabling are attached
// as kprobes/kretprobes, where the kernel has them: each trampoline costs
// a program load (the kernel loads a tracing program for one function)
// and an attach and detach that together took ~1.7 times a kprobe's
// (docs/perf.md: fbt::vfs_*:entry, 71 functions, 20.2 s against 11.6 s
// on Debian 6.1 under TCG), while a call through a trampoline costs
// less than through a kprobe (~570 against ~800 ns there): few
// functions, traced often, gain from fentry; large globs attach sooner
// as kprobes. DTRACE_BPF_TRAMPOLINE_MAX=<n> sets it (benches, tests).
constexpr size_t k_trampolines_max = 8;
[[nodiscard]] size_t trampolines_max();

// Does this kernel have kprobes (the perf kprobe PMU)?
[[nodiscard]] bool have_kprobe_pmu();

// FENTRY or FEXIT, and the kprobe (entry) or kretprobe (return) on the
// same function that replaces it where the trampoline cannot be had.
[[nodiscard]] bool is_trampoline(const attach_point &p);
[[nodiscard]] attach_point kprobe_fallback(const attach_point &p);

// Does this kernel attach kprobe_multi links (BPF_TRACE_KPROBE_MULTI,
// 5.18 with CONFIG_FPROBE)? Asked once: a program loaded for it, linked to
// one function and closed: 0 if so, else the errno of what failed
// (EOPNOTSUPP: no CONFIG_FPROBE).
[[nodiscard]] int kprobe_multi_errno();

// A plain kprobe or kretprobe on a named function with the pt_regs
// context: one kprobe_multi link could take it.
[[nodiscard]] bool is_single_kprobe(const attach_point &p);

// The kprobe_multi point for these single kprobes of one kind (entry or
// return; is_single_kprobe() all): their distinct function names in
// order; `cookie[i]` is the index of points[i]'s name in it.
[[nodiscard]] attach_point kprobe_multi_of(const std::vector<const attach_point *> &points,
					   std::vector<uint32_t> &cookie);

// BPF_TRACE_UPROBE_MULTI (enum bpf_attach_type, Linux 6.6): the
// installed uapi headers may be older than the running kernel.
constexpr uint32_t k_trace_uprobe_multi = 48;

// Does this kernel attach uprobe_multi links (6.6)? Asked once, as libbpf
// probes it: a program loaded for it and linked to "/", which a kernel
// that has the links refuses with EBADF (not a regular file): 0 if so,
// else the errno of what failed.
[[nodiscard]] int uprobe_multi_errno();

// A plain uprobe or uretprobe at one offset with a pt_regs context (no
// USDT arguments, no semaphore): one uprobe_multi link could take it.
[[nodiscard]] bool is_single_uprobe(const attach_point &p);

// The uprobe_multi point for these single uprobes of one kind, object,
// process and context (is_single_uprobe() all, equal but for the
// offset): their distinct offsets in order; `cookie[i]` is the index of
// points[i]'s offset in it.
[[nodiscard]] attach_point uprobe_multi_of(const std::vector<const attach_point *> &points,
					   std::vector<uint32_t> &cookie);

// Attach prog_fd; throws engine_error naming `what` (a probe) on failure.
[[nodiscard]] std::vector<unique_fd> attach(const attach_point &p, int prog_fd,
					    const std::string &what);

// CONSUMER programs (BEGIN, END): BPF_PROG_TEST_RUN with
// BPF_F_TEST_RUN_ON_CPU, a raw_tp program run once in the kernel on `cpu`
// with a zeroed context. Throws engine_error on failure.
void run_on_cpu(int prog_fd, uint32_t cpu);

// Online CPUs (/sys/devices/system/cpu/online).
[[nodiscard]] std::vector<uint32_t> online_cpus();

} // namespace dt::engines::bpf
