// SPDX-License-Identifier: MIT
//
// translate.hpp - DIF to BPF: the bpf engine's code generator.
//
// The runtime (bpf_engine.cc) asks for a layout, creates the maps it
// describes (dt_bpf_abi.h), then asks for one program per attach target:
//
//   layout L = plan(program, opts)        variable slots, map sizes, strtab
//   runtime: create maps with L's sizes; fill dt_strtab with L.strtab,
//            dt_probes per EPID, dt_epids_<n> tables
//   insns = translate(program, L, spec, fds)   per attach target
//   runtime: bpf_prog_load(type for spec.ctx, insns, "Dual MIT/GPL")
//            on a verifier error: explain(log, ...) -> message for the user
//
// translate() emits: the prologue for spec.ctx (dt_mem lookup, nesting
// guard, activity check, arguments, timestamp), each clause of spec.ecbs
// in order (predicate, actions, records into m->buf, aggregations into
// their maps, dt_emit_firing), faults (dt_emit_fault, then spec.errors'
// clauses with arg1..arg5 = EPID, action, DIF offset, code, illval), the
// epilogue, and the BPF library's .text (lib/dt_lib.h), linked.
//
// Errors: throws translate_error with a message naming the clause's line
// (e.g. "bpf engine: line 3: subroutine strtok() is not supported yet").
#pragma once

#include <dtrace/plugin.h>
#include <dtrace/program.hpp>

#include <linux/bpf.h>

#include <array>
#include <compare>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dt::engines::bpf {

class translate_error : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

struct plan_options {
	uint64_t strsize = 256;
	uint64_t dynvarsize = 1 << 20;
	uint64_t aggsize = 4 << 20;
};

// Where each variable lives; computed once per program.
struct layout {
	uint64_t strsize = 256;
	// dt_globals value: one 8-byte slot per global scalar by id, then
	// by-ref storage (strsize or dtdt_size each).
	uint32_t globals_size = 8;
	// dt_strtab value: every DIFO's strtab, concatenated (<= DT_BPF_STRTAB_SIZE).
	std::string strtab;
	// dt_tls / dt_dvars: key and value sizes, max_entries.
	uint32_t tls_value_size = 8, dvar_key_size = 16, dvar_value_size = 8;
	uint32_t tls_entries = 1, dvar_entries = 1;
	// Per aggregation (index aggid-1): map key and value sizes, entries.
	struct agg_map {
		uint32_t key_size = 8;	 // >= 1: aggregation::key_size, or 8 if 0
		uint32_t value_size = 8; // aggregation::nwords * 8
		uint32_t entries = 1;
	};
	std::vector<agg_map> aggs;
	// Implementation detail for translate(): slot offsets by variable id.
	std::vector<std::pair<uint32_t, uint32_t>> global_slots; // (id, offset)
	std::vector<std::pair<uint32_t, uint32_t>> local_slots;	 // (id, offset in m->locals)
	std::vector<std::pair<const difo *, uint32_t>> strtab_offsets;
	// Every agg_map::key_size counts an 8-byte prefix {uint32_t aggid,
	// uint32_t generation} that the code stages at m->key[0..8) before the
	// aggregation's key (at 8 + key_offsets[i]), zero-padded to key_size:
	// the generation is dt_aggen's (dt_bpf_abi.h, exact snapshots).
	// A program may use at most 64 maps (the kernel's MAX_USED_MAPS), so
	// 100 clauses with a quantize() each cannot have a map per
	// aggregation: when plan() sets this, the runtime puts every
	// aggregation with the same (key_size, value_size) in one shared map,
	// and map_fds::aggs[aggid-1] repeats its fd. When false, one map per
	// aggregation.
	bool agg_key_prefixed = false;
	// Some DIFO calls d_path(): the runtime looks up the kernel offsets
	// it walks (dt_bpf_status::dpath), which no other program pays for.
	bool d_path = false;
};

// Throws translate_error (e.g. strsize above DT_BPF_STRSIZE_MAX).
[[nodiscard]] layout plan(const program &p, const plan_options &o);

// How the program's context gives arguments (plugin.h dt_bpf_attach).
enum class ctx_kind {
	raw_tp,	    // args[i] = raw tracepoint arg argmap[i]; test_run (BEGIN/END)
	sys_enter,  // raw_tp sys_enter: args from pt_regs (raw arg 0); filter = raw arg 1
	sys_exit,   // raw_tp sys_exit: arg0 = arg1 = raw arg 1; errno; filter = orig_ax
	perf_event, // profile/tick: arg0 kernel pc, arg1 user pc
	// Appended (bpf2, plugin.h DT_BPF_CTX_REGS*): kprobe-type programs
	// (uprobes) whose context is struct pt_regs.
	regs,	     // function entry: arg0..arg5 by the calling convention
	regs_return, // function return: arg0 = 0, arg1 = the return value
	// Appended (plugin.h ABI 1.5): a tracepoint program whose context is
	// the event's record: args[i] = the u64 at byte offset argmap[i];
	// errno from arg0 when probe_spec::errno_arg0.
	tp_record,
	// Appended (plugin.h ABI 1.6): a uprobe at a USDT site: args[i] from
	// probe_spec::usdt[i] (a register, user memory or a constant).
	usdt,
};

// tp_record: the bytes of the record that args[i] is read from, by its
// field's format (plugin.h ABI 1.6 argfmt: 0 is the 8-byte value), and
// whether the kernel lets a tracepoint program read them directly: past
// the record's first word (common_*), aligned to their size, inside the
// record's `size` bytes (the kernel refuses to attach a program that
// reads past the event's last field).
[[nodiscard]] inline uint32_t record_bytes_read(uint32_t fmt)
{
	if (fmt == 0)
		return 8;
	if ((fmt & DT_BPF_TP_ADDR) != 0)
		return 0;
	if ((fmt & (DT_BPF_TP_DATA_LOC | DT_BPF_TP_REL_LOC)) != 0)
		return 4;
	return DT_BPF_TP_SIZE_OF(fmt);
}

[[nodiscard]] inline bool record_field_readable(int32_t off, uint32_t fmt, uint32_t size)
{
	uint32_t n = record_bytes_read(fmt);
	uint32_t kinds = fmt & (DT_BPF_TP_ADDR | DT_BPF_TP_DATA_LOC | DT_BPF_TP_REL_LOC);
	if (fmt != 0 && kinds == 0 && n != 1 && n != 2 && n != 4 && n != 8)
		return false;
	if (kinds != 0 && (kinds & (kinds - 1)) != 0)
		return false; // more than one kind
	auto u = static_cast<uint32_t>(off);
	if (off < 8 || (n != 0 && u % n != 0))
		return false;
	return n == 0 ? u < size : u + n <= size;
}

// Which activity states let the program run (dt_bpf_abi.h).
enum class gate {
	probe, // ACTIVE only
	begin, // INACTIVE; sets ACTIVE after its clauses
	end,   // ACTIVE or DRAINING; sets STOPPED after its clauses
	error, // run from the consumer: never (ERROR clauses run inline)
};

struct ecb_ref {
	uint32_t clause = 0;	       // index into program::clauses
	uint32_t epid = 0;	       // fixed EPID when epid_map_fd < 0
	int epid_map_fd = -1;	       // else ARRAY u32 EPID keyed by m->filter (0: skip)
	uint32_t epid_map_entries = 0; // the table's max_entries (filter bound)
	// Appended (translator): one table may serve several ECBs (a program
	// may use at most 64 maps): the key is filter * epid_map_stride +
	// epid_map_index, for filter < epid_map_entries / epid_map_stride.
	// Defaults: one table per ECB, keyed by the filter.
	uint32_t epid_map_stride = 1;
	uint32_t epid_map_index = 0;
};

// A USDT site's most arguments (stapsdt: 12; abi DT_BPF_NARGS_USDT).
constexpr size_t k_usdt_nargs = 12;

// Where one USDT argument lives (plugin.h dt_usdt_arg_t).
struct usdt_loc {
	int8_t kind = DT_USDT_ARG_NONE; // enum dt_usdt_arg_kind
	int8_t size = 8;		// bytes; negative: signed
	int16_t reg = 0;		// byte offset in struct pt_regs
	int64_t value = 0;		// the constant, or the displacement
	int16_t index = 0;		// MEM with scale: the index register
	uint8_t scale = 0;		// 0: no index
	auto operator<=>(const usdt_loc &) const = default;
};

struct probe_spec {
	ctx_kind ctx = ctx_kind::raw_tp;
	gate when = gate::probe;
	uint32_t raw_nargs = 0; // raw_tp: u64 arguments the context holds;
				// tp_record: the record's size in bytes
	int32_t argmap[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; // -1: always 0
	std::vector<ecb_ref> ecbs;			     // in EPID order
	std::vector<ecb_ref> errors;			     // dtrace:::ERROR's ECBs (fixed EPIDs)
	// Appended (runtime, plugin.h ABI 1.2): raw_tp with filter_arg >= 0:
	// m->filter = (raw argument filter_arg >> filter_shift) & filter_mask.
	int32_t filter_arg = -1;
	uint32_t filter_shift = 0;
	uint64_t filter_mask = 0;
	// Appended (bpf2): >= 0: run only in this process (uprobes of the pid
	// provider: the probe is attached for every process mapping the file).
	int32_t pid = -1;
	// Appended (plugin.h ABI 1.3): a uprobe with DT_BPF_CTX_REGS, i.e. on
	// a function's first instruction: m->uentry_ret = the return address
	// at the user stack pointer (dt_bpf_abi.h), else 0.
	bool user_entry = false;
	// Appended (plugin.h ABI 1.5): tp_record: arg0 is a system call's
	// return value, errno its negation when it lies in -4095..-1.
	bool errno_arg0 = false;
	// Appended: a program at a kernel function's entry or return (fentry,
	// fexit, kprobe, kretprobe): m->kfunc_ip = bpf_get_func_ip(), else 0.
	bool kernel_func = false;
	// Appended: a raw tracepoint whose clauses read the kernel stack: the
	// text of the tracing machinery between its call site and the program
	// ({start, size}, at most DT_BPF_KTRACER: tracer_text.hpp), for
	// m->ktracer (dt_bpf_abi.h); empty elsewhere.
	std::vector<std::pair<uint64_t, uint64_t>> tracer_text;
	// Appended (translator): sys_enter/sys_exit whose every ECB is
	// filtered by the system call's number: when non-empty, the program
	// returns at its first instructions unless the number is one of these,
	// so that the machine's other system calls cost a few instructions.
	std::vector<uint32_t> early_filters;
	// Appended (plugin.h ABI 1.6): tp_record: how each field becomes
	// args[i] (argfmt; 0: the 8-byte value).
	uint32_t argfmt[10] = {};
	// Appended (plugin.h ABI 1.6): usdt: where each argument lives.
	std::array<usdt_loc, k_usdt_nargs> usdt{};
	// Appended (plugin.h ABI 1.6): raw_tp: m->filter is the result of
	// this filter program ({op, a, imm} per step; attach.cc checked it),
	// instead of filter_arg's.
	std::vector<std::array<int64_t, 3>> filter_steps;
	// Appended (kprobe_multi): regs, regs_return: m->filter is the attach
	// cookie (bpf_get_attach_cookie(): the function's index in the link).
	bool filter_cookie = false;
	// Appended (option cpu): >= 0: return at once on every other CPU.
	int32_t cpu = -1;
	// Appended (plugin.h ABI 1.9, pair.hpp): raw_tp ending an interval:
	// >= 0: the dt_pair map, whose entry for {thread, raw argument
	// pair_end_key} must exist; argmap and the filter then number
	// pair_begin_nargs + raw_nargs + 1 raw arguments (the begin's, the
	// end's, the time).
	int pair_map_fd = -1;
	uint32_t pair_begin_nargs = 0;
	int32_t pair_end_key = -1;
	// Appended (plugin.h ABI 1.9): raw_tp: args[arg_steps_index] is the
	// result of this program (as filter_steps'; 0 where it drops).
	int32_t arg_steps_index = -1;
	std::vector<std::array<int64_t, 3>> arg_steps;
};

// Map file descriptors translate() and link() refer to.
struct map_fds {
	int mem = -1, status = -1, cpustate = -1, ring = -1, probes = -1;
	int strtab = -1, globals = -1, tls = -1, dvars = -1;
	std::vector<int> aggs; // by aggid - 1
	int spec = -1;	       // appended: dt_spec (speculations, dt_bpf_abi.h)
	int agg_gen = -1;      // appended: dt_aggen (the aggregations' generation)
};

struct translated {
	std::vector<struct bpf_insn> insns;
	// (first instruction, clause index) for each clause's code, ascending;
	// instructions before the first entry or in the library are the
	// engine's own.
	std::vector<std::pair<uint32_t, uint32_t>> clause_starts;
	// Appended (translator): clause index UINT32_MAX in clause_starts
	// marks the engine's own code (epilogue, fault subprogram, library).
	//
	// Appended (translator): BTF for the program's functions. When the
	// code passes a callback (BPF_PSEUDO_FUNC: the library's bpf_loop
	// callbacks) the kernel wants func_info for every function; then btf
	// is a raw BTF blob and func_info one record per function start, and
	// the loader must pass them:
	//   btf_fd = bpf_btf_load(btf.data(), btf.size(), nullptr);
	//   opts.prog_btf_fd = btf_fd; opts.func_info = func_info.data();
	//   opts.func_info_cnt = func_info.size();
	//   opts.func_info_rec_size = sizeof(struct bpf_func_info);
	// Both empty when not needed.
	std::vector<uint8_t> btf;
	std::vector<struct bpf_func_info> func_info;
};

[[nodiscard]] translated translate(const program &p, const layout &l, const probe_spec &spec,
				   const map_fds &fds);

// A verifier log -> one message for the user naming the clause and its
// source line, e.g. "bpf engine: the kernel's verifier rejected the clause
// at line 3 (syscall::read:entry): <the log's last line>". Never the raw log.
// *clause (when given) is set to the clause's index, or UINT32_MAX when the
// code at fault is the engine's own.
[[nodiscard]] std::string explain_verifier(const program &p, const translated &t,
					   const std::string &log, uint32_t *clause = nullptr);

} // namespace dt::engines::bpf
