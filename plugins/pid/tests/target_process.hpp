// SPDX-License-Identifier: MIT
// Test support for the pid provider: a live target process (started,
// waited on until it is ready, killed at the end), the rows of a
// `dtrace -l` listing, and binutils' view of a function (nm, objdump) to
// check the plugin against.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dt::test::pid {

// Path of the dt_pid_target test program.
[[nodiscard]] const char *target_path();

// A child process running `argv` (default: the target program) whose
// standard output first says "ready". Killed and reaped on destruction.
class target_process {
public:
	explicit target_process(std::vector<std::string> argv = {target_path()});
	target_process(const target_process &) = delete;
	target_process &operator=(const target_process &) = delete;
	~target_process();

	[[nodiscard]] pid_t pid() const { return pid_; }
	[[nodiscard]] bool ready() const { return ready_; }
	// What it printed before (and including) "ready", for diagnostics.
	[[nodiscard]] const std::string &output() const { return output_; }

private:
	pid_t pid_ = -1;
	int stdin_fd_ = -1;
	int stdout_fd_ = -1;
	bool ready_ = false;
	std::string output_;
};

// One row of `dtrace -l`.
struct row {
	std::string id, provider, mod, func, name;
};

// The rows of a listing (the header line left out).
[[nodiscard]] std::vector<row> rows(const std::string &listing);

// binutils' view of function `func` in ELF file `path`: its instructions
// as `objdump -d` decodes them, each as (offset from the function start,
// its bytes), and the file offset of its first byte (from readelf's
// section headers).
struct objdump_function {
	std::vector<std::pair<uint64_t, std::vector<uint8_t>>> insns;
	uint64_t size = 0;
};
[[nodiscard]] objdump_function objdump(const std::string &path, const std::string &func);

} // namespace dt::test::pid
