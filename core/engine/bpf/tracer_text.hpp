// SPDX-License-Identifier: MIT
//
// tracer_text.hpp - the kernel text between a raw tracepoint's call site
// and a bpf program attached to it, for stack(), caller and stackdepth
// (dt_bpf_mem.ktracer, builtins.bpf.c dt_kskip()).
//
// A raw tracepoint program's kernel stack (bpf_get_stack) begins inside
// the tracer:
//
//   the program's own frames        (bpf`bpf_prog_..., its subprograms)
//   bpf_trace_runN                  calls the program
//   __bpf_trace_<tp>                the probe the tracepoint calls (gone
//                                   where it tail-calls bpf_trace_runN)
//   __traceiter_<tp>                only when the tracepoint has more than
//                                   one probe (else its static call jumps
//                                   to the probe directly)
//   <the call site>                 e.g. syscall_trace_enter+0x183
//
// Which of them are there depends on the kernel and on the other probes
// of the tracepoint at the time, so the program finds them at run time:
// the last frame (of the first few) inside one of these ranges ends the
// tracer's part. The ranges come from /proc/kallsyms: a function's end is
// the next symbol's address; bpf_trace_run1..12 (consecutive in
// kernel/trace/bpf_trace.c) are one range from the first to the end of
// the last.
#pragma once

#include <dtrace/program.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dt::engines::bpf {

using text_range = std::pair<uint64_t, uint64_t>; // {start, size}

// Whether a clause records or reads the kernel stack: stack(), a stack()
// key, stackdepth or caller (only then does its program need the ranges).
[[nodiscard]] bool reads_kernel_stack(const clause &c);

class tracer_text {
public:
	// path: a kallsyms file (tests); empty: $DTRACE_KALLSYMS_PATH, else
	// /proc/kallsyms.
	explicit tracer_text(std::string path = {});

	// The ranges found for raw tracepoint `tp` (at most 3: the
	// bpf_trace_run span, __bpf_trace_<tp>, __traceiter_<tp>); empty
	// when kallsyms shows no addresses (no privilege) or has none of
	// them. Reads the file on the first call.
	[[nodiscard]] std::vector<text_range> of(const std::string &tp);

private:
	void load();
	[[nodiscard]] uint64_t end_of(uint64_t addr) const;

	std::string path_;
	bool loaded_ = false;
	std::vector<uint64_t> text_;		// every text symbol's address, sorted
	std::map<std::string, uint64_t> named_; // the tracer's functions by name
};

} // namespace dt::engines::bpf
