// SPDX-License-Identifier: MIT
//
// stop_point.hpp - a uprobe that stops the thread reaching it, for the
// session's watch on the run-time linker (docs/usdt.md, "Objects mapped
// later"): a thread of the process that calls ld.so's _dl_debug_state()
// (where glibc tells debuggers that the link map changed: r_debug.r_brk)
// sends itself SIGSTOP, so the whole process stops before dlopen() or
// dlclose() returns, and the consumer has time to place or remove probes.
//
//   program   n = dt_stops[0]; atomically n++;
//             bpf_send_signal_thread(SIGSTOP); return 0
//   attached  a uprobe at (object, offset) for that process only
//             (attach.hpp, DT_BPF_ATTACH_UPROBE with its pid)
//
// count() is how often it fired: the consumer tells its stops from any
// other SIGSTOP of the process by it. detach() or destroying it detaches.
#pragma once

#include "fd.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace dt::engines::bpf {

class stop_point {
public:
	// Throws engine_error (privilege_error) when the kernel refuses.
	stop_point(int32_t pid, const std::string &path, uint64_t offset);
	[[nodiscard]] uint64_t count() const;
	// Detach the uprobe; count() stays readable, final once this returns.
	void detach() { links_.clear(); }
	// The same, once the process has exited, off this thread
	// (fd.hpp close_later()).
	void detach_later() { close_later(std::move(links_)); }

private:
	unique_fd map_, prog_;
	std::vector<unique_fd> links_;
};

} // namespace dt::engines::bpf
