// SPDX-License-Identifier: MIT
//
// exec_watch.hpp - processes started after tracing began, for the USDT
// descriptions that name no process (`test_prov*:::`, `shop:::` with -Z),
// as illumos enables a program's USDT probes when its startup code
// (drti.o) registers its DOF, before main() runs (docs/usdt.md,
// "Processes started later"):
//
//   exec()          the exec_stop program (engine/bpf/exec_stop.hpp) stops
//                   the process in the kernel, before it runs user code,
//                   unless its file is known to hold no probes, or it has
//                   a controlling terminal and dtrace did not start it (a
//                   job-control shell would report the stop): that one
//                   runs on while its probes are placed
//   take()          each stopped process: its executable (/proc/PID/exe)
//                   read; without .note.stapsdt (what sys/sdt.h, dtrace -h
//                   and dtrace -G place) it is continued at once and its
//                   file skipped from then on; else it is handed to the
//                   session, which matches the program's descriptions
//                   against it, watches its run-time linker (load_watch)
//                   for the libraries it loads, and continues it
//   finish()        no process stops any more; those stopped are continued
//
// Only with the bpf engine; the session sets it up only when the program
// has such a description.
#pragma once

#include <sys/types.h>

#include <memory>
#include <vector>

namespace dt::engines::bpf {
class exec_stop;
}

namespace dt::detail {

class exec_watch {
public:
	// Throws engine_error when the kernel refuses the program.
	exec_watch();
	~exec_watch();
	exec_watch(const exec_watch &) = delete;
	exec_watch &operator=(const exec_watch &) = delete;

	// Has a process stopped at exec() since the last take()?
	[[nodiscard]] bool pending() const;
	// The processes that exec()ed a file with USDT notes since the last
	// call, each stopped if `held`: the caller continues those
	// (load_watch::resume). The others are continued here.
	struct started {
		pid_t pid;
		bool held;
	};
	std::vector<started> take();
	// Stop no process any more and continue those stopped meanwhile.
	void finish();

private:
	std::unique_ptr<engines::bpf::exec_stop> stop_;
};

// Does the ELF file at `path` carry USDT notes (.note.stapsdt)?
[[nodiscard]] bool has_usdt_notes(const char *path);

} // namespace dt::detail
