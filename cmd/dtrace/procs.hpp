// SPDX-License-Identifier: MIT
//
// procs.hpp - the processes dtrace(1) follows: -c CMD (created, held
// before exec until tracing begins, killed if still running when dtrace
// exits, as libdtrace does with processes it created) and -p PID (grabbed:
// watched through a pidfd). Each one's end is reported in illumos'
// prochandler() words: "pid N has exited", "pid N exited with status S",
// "pid N terminated by SIGNAME".
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dt::cli {

class procs {
public:
	procs() = default;
	~procs();
	procs(const procs &) = delete;
	procs &operator=(const procs &) = delete;

	// fork the command (split on blanks, as illumos make_argv()); it
	// waits before exec until release(). Throws std::runtime_error with
	// DTrace's message ("failed to execute CMD: cannot find executable file").
	pid_t create(const std::string &cmd);
	// Watch an existing process. Throws std::runtime_error ("failed to
	// grab pid N: No such process").
	void grab(pid_t pid);
	// Let created processes exec.
	void release();

	[[nodiscard]] bool empty() const { return list_.empty(); }
	[[nodiscard]] size_t live() const;
	// Reap what has ended; returns the notices to print (without "dtrace: ").
	std::vector<std::string> poll();

private:
	struct proc {
		pid_t pid = -1;
		bool created = false;
		bool live = true;
		int go_fd = -1; // created: write end of the hold pipe
		int pidfd = -1; // grabbed
	};
	std::vector<proc> list_;
};

} // namespace dt::cli
