// SPDX-License-Identifier: MIT
//
// pair.hpp - probes at the end of an interval that another event begins
// (plugin.h ABI 1.9: the lockstat provider's waits, from
// lock:contention_begin to the same thread's lock:contention_end):
//
//   begin event   a small program of the engine's own (load_pair_begin()):
//                 dt_pair[{thread, begin's key argument}] =
//                 {now, begin's raw arguments}
//   end event     the probe's program (codegen pair_begin()): no entry for
//                 {thread, end's key argument}: return at once; else the
//                 end's raw arguments and the time since the begin are
//                 written after the begin's in the entry, which is then
//                 the raw argument vector argmap and the filter read
//                 (attach_point::raw_count() of them); the entry is
//                 deleted on every way out of the program (pair_forget())
//
//   dt_pair   HASH {u64 thread, u64 key} -> {u64 time, u64 raw[8]}, one
//             per attach point that has a begin
//
// The thread is the task's id, or for the idle tasks (id 0 on every CPU)
// 1 << 32 | the CPU. A begin the program missed (it attached after it)
// leaves no entry, so its end fires nothing; an entry whose end the
// program missed (its nesting guard refused the firing) is deleted there
// too; a thread's later begin with the same key replaces it.
#pragma once

#include "attach.hpp"
#include "fd.hpp"
#include "insn.hpp"

#include <dtrace/plugin.h>

#include <cstdint>

namespace dt::engines::bpf {

struct pair_key {
	uint64_t thread;
	uint64_t key;
};

struct pair_value {
	uint64_t time; // the begin's bpf_ktime_get_ns()
	uint64_t raw[DT_BPF_PAIR_NARGS];
};

// Threads waiting at once (dt_pair's entries): a begin finding it full is
// not saved, and its end fires nothing.
constexpr uint32_t k_pair_entries = 8192;

// dt_pair (throws engine_error, privilege_error).
[[nodiscard]] unique_fd create_pair_map();

// The begin event's program for `p` (attach_point::begin_target) over
// map_fd; throws engine_error naming `what` (a probe) if refused.
[[nodiscard]] unique_fd load_pair_begin(const attach_point &p, int map_fd, const std::string &what);

// Where the begin program attaches.
[[nodiscard]] attach_point pair_begin_point(const attach_point &p);

// The pair_key of the running thread and raw argument `arg` of the
// context in ctx_reg, on the stack at r10 + at (16 bytes). Clobbers
// r0-r5.
void emit_pair_key(asm_buf &a, int ctx_reg, int32_t arg, int16_t at);

} // namespace dt::engines::bpf
