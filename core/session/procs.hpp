// SPDX-License-Identifier: MIT
//
// procs.hpp - the processes a session follows (illumos libdtrace's
// dt_proc.c; internal to core/session): -c CMD (created and held at the
// executable's entry point -- the program and its shared libraries
// mapped and relocated, main() not yet run, as libdtrace's default
// evaltime=postinit -- until tracing begins; killed if still running when
// dtrace exits, as libdtrace does with processes it created) and -p PID
// (grabbed: watched through a pidfd). Each one's end is reported in illumos'
// prochandler() words: "pid N has exited", "pid N exited with status S",
// "pid N terminated by SIGNAME".
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dt::detail {

class procs {
public:
	procs() = default;
	~procs();
	procs(const procs &) = delete;
	procs &operator=(const procs &) = delete;

	// fork and exec the command (split on blanks, as illumos
	// make_argv()) under ptrace, and run it to its executable's entry
	// point, where it stays stopped until release(). Throws
	// dt::error (errc::process) with DTrace's message ("failed to execute CMD:
	// cannot find executable file", "failed to control pid N: process
	// exited with status S").
	pid_t create(const std::string &cmd);
	// -x evaltime (illumos dt_opt_evaltime): where create() holds the
	// command. "exec": just after exec, before the dynamic linker has
	// run; "preinit", "postinit" (the default), "main": at the
	// executable's entry point, its libraries mapped and initialised.
	// Throws dt::error (errc::usage) ("Invalid value
	// for specified option").
	void evaltime(const std::string &when);
	// Watch an existing process. Throws dt::error (errc::process) ("failed to
	// grab pid N: No such process").
	void grab(pid_t pid);
	// Let created processes run (detach from them).
	void release();

	[[nodiscard]] bool empty() const { return list_.empty(); }
	[[nodiscard]] size_t live() const;
	// The processes not yet seen to end.
	[[nodiscard]] std::vector<pid_t> live_pids() const;
	// Reap what has ended; returns the notices to print (without "dtrace: ").
	std::vector<std::string> poll();

private:
	struct proc {
		pid_t pid = -1;
		bool created = false;
		bool live = true;
		bool held = false; // created: stopped under ptrace until release()
		int pidfd = -1; // grabbed
	};
	std::vector<proc> list_;
	bool to_entry_ = true; // evaltime: run created commands to their entry point
};

} // namespace dt::detail
