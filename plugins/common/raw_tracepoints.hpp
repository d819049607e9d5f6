// SPDX-License-Identifier: MIT
// The running kernel's raw tracepoints, as the bpf engine hooks of the
// proc and tcp providers need them: whether a tracepoint exists and how
// many arguments (its TP_PROTO) it passes. Both change between kernels
// (sched_process_exit gained `group_dead` in 2025), so a provider asks
// rather than assumes.
//
// Source: the kernel's BTF (/sys/kernel/btf/vmlinux), where tracepoint
// <event> is `typedef void (*btf_trace_<event>)(void *, TP_PROTO...)`.
// Loaded on the first question and kept. Without BTF nothing is known
// (nullopt), and the provider falls back to what it was written for.
#pragma once

#include <memory>
#include <optional>
#include <string>

struct btf;

namespace dt::plugin {

class raw_tracepoints {
public:
	raw_tracepoints();
	~raw_tracepoints();
	raw_tracepoints(const raw_tracepoints &) = delete;
	raw_tracepoints &operator=(const raw_tracepoints &) = delete;

	// The number of arguments raw tracepoint `event` passes; -1 if the
	// kernel has no such tracepoint; nullopt if it cannot be told (no BTF).
	[[nodiscard]] std::optional<int> arity(const std::string &event);

private:
	bool tried_ = false;
	btf *btf_ = nullptr;
};

} // namespace dt::plugin
