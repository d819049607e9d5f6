// SPDX-License-Identifier: MIT
//
// exec_stop.hpp - a program on the sched_process_exec tracepoint that
// stops each process as it finishes exec(), for the session's watch on
// processes started after tracing began (core/session/exec_watch.hpp,
// docs/usdt.md, "Processes started later"): the process sends itself
// SIGSTOP there, in the exec()ing task, so it stops before it returns to
// user space, before the run-time linker or main() run, and the consumer
// has time to place the probes of its executable.
//
//   program   (raw tracepoint sched_process_exec: task, old_pid, bprm)
//             key = the exec()ed file's {dev, ino, size, mtime}
//                   (bprm->file->f_inode, offsets from vmlinux BTF)
//             if skip[key]: return          (a file with no probes)
//             held = !(task->signal->tty && task->real_parent->tgid != dtrace)
//             pending[tgid] = key + held; if held: bpf_send_signal_thread(SIGSTOP)
//   attached  bpf_raw_tracepoint_open("sched_process_exec")
//
// take() hands the pending processes to the consumer, which continues
// each (SIGCONT) and marks the files that hold nothing it wants with
// skip(), so that their next exec() runs straight on. Without BTF the key
// is zero and every exec() stops (the consumer still continues those that
// hold nothing at once).
//
// A process with a controlling terminal is not stopped (unless dtrace
// itself started it): its parent is most often a job-control shell, which
// waits with WUNTRACED and would report the stop to its user ("Stopped",
// status 147) and take the terminal back. Such a process is still handed
// to the consumer, which places its probes while it runs: those it reaches
// before then do not fire.
#pragma once

#include "fd.hpp"

#include <sys/types.h>

#include <cstdint>
#include <vector>

namespace dt::engines::bpf {

class exec_stop {
public:
	// The exec()ed file, as the kernel sees it (kernel dev_t).
	struct file_key {
		uint64_t ino = 0;
		uint64_t size = 0;
		int64_t mtime = 0;
		uint32_t dev = 0;
		uint32_t held = 0; // pending's value: 1 if the program stopped it
	};
	struct stopped {
		pid_t pid;
		file_key file; // file.held: stopped (else it runs on)
	};

	// Loads and attaches. Throws engine_error (privilege_error) when the
	// kernel refuses.
	exec_stop();
	// Has a process stopped (or is about to) since the last take()?
	[[nodiscard]] bool pending() const;
	// The processes that stopped since the last call (each once).
	std::vector<stopped> take();
	// Never stop a process for exec()ing this file again.
	void skip(const file_key &f);
	// Detach: no process stops any more; take() still answers.
	void detach() { link_.reset(); }

private:
	unique_fd pending_, skip_, prog_, link_;
};

} // namespace dt::engines::bpf
