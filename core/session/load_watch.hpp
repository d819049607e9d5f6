// SPDX-License-Identifier: MIT
//
// load_watch.hpp - objects a -c/-p process maps after tracing starts
// (dlopen()), as illumos dt_proc.c watches them through rtld_db: a stop
// point (engine/bpf/stop_point.hpp) on the run-time linker's
// _dl_debug_state(), which glibc calls (r_debug.r_brk) before and after
// each change of the link map. The thread that calls it stops (SIGSTOP);
// the session sees the stop count grow, rescans the program's
// descriptions if the process's mapped files changed, places or removes
// probes, and continues the process (SIGCONT) -- all before dlopen() or
// dlclose() returns (docs/usdt.md, "Objects mapped later").
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dt::engines::bpf {
class stop_point;
}

namespace dt::detail {

// Wait (at most a second) until process `pid`, which sent itself SIGSTOP
// in a probe, is stopped; false when it is gone (or a zombie).
bool wait_stopped(pid_t pid);
// Has process `pid` exited (gone, or a zombie)?
[[nodiscard]] bool process_gone(pid_t pid);

class load_watch {
public:
	load_watch();
	~load_watch();
	load_watch(const load_watch &) = delete;
	load_watch &operator=(const load_watch &) = delete;

	// Watch process `pid`. "" when watched; else why not (no run-time
	// linker: a static executable; a kernel that refuses the uprobe).
	std::string add(pid_t pid);
	[[nodiscard]] bool empty() const { return list_.empty(); }
	// Has a watched process stopped at its stop point since the last
	// take()? One map read per process.
	[[nodiscard]] bool pending() const;
	struct stopped {
		pid_t pid;
		bool changed; // its mapped files differ from the last look
	};
	// The processes that stopped at their stop point since the last call,
	// each waited for until it is stopped (at most a second). The caller
	// resumes each one.
	std::vector<stopped> take();
	static void resume(pid_t pid);
	// Stop watching process `pid` (it has exited).
	void remove(pid_t pid);
	// Detach every stop point, then resume the processes that stopped at
	// one meanwhile.
	void finish();

private:
	struct watched {
		pid_t pid = -1;
		std::unique_ptr<engines::bpf::stop_point> sp;
		uint64_t seen = 0;
		std::string files; // its mapped files, last look
	};
	std::vector<watched> list_;
};

} // namespace dt::detail
