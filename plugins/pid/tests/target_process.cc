// SPDX-License-Identifier: MIT
// Test support for the pid provider (see target_process.hpp).
#include "target_process.hpp"

#include "run_dtrace.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace dt::test::pid {

const char *target_path() { return DT_PID_TARGET; }

target_process::target_process(std::vector<std::string> argv)
{
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		throw std::runtime_error("pipe failed");
	pid_ = fork();
	if (pid_ < 0)
		throw std::runtime_error("fork failed");
	if (pid_ == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		std::vector<char *> args;
		for (auto &a : argv)
			args.push_back(a.data());
		args.push_back(nullptr);
		execvp(args[0], args.data());
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	stdin_fd_ = in[1];
	stdout_fd_ = out[0];
	// Wait for "ready": by then the dynamic linker has mapped every
	// library and main() has run.
	char c;
	while (read(stdout_fd_, &c, 1) == 1) {
		output_ += c;
		if (c == '\n' && output_.find("ready") != std::string::npos) {
			ready_ = true;
			break;
		}
	}
}

target_process::~target_process()
{
	if (pid_ > 0) {
		kill(pid_, SIGKILL);
		int ws;
		while (waitpid(pid_, &ws, 0) < 0 && errno == EINTR) {
		}
	}
	if (stdin_fd_ >= 0)
		close(stdin_fd_);
	if (stdout_fd_ >= 0)
		close(stdout_fd_);
}

std::vector<row> rows(const std::string &listing)
{
	std::vector<row> out;
	bool header = true;
	for (const auto &l : lines(listing)) {
		if (header) {
			header = false;
			continue;
		}
		std::istringstream s(l);
		row r;
		s >> r.id >> r.provider >> r.mod >> r.func >> r.name;
		out.push_back(r);
	}
	return out;
}

namespace {

uint64_t hex(const std::string &s) { return std::strtoull(s.c_str(), nullptr, 16); }

} // namespace

objdump_function objdump(const std::string &path, const std::string &func)
{
	objdump_function f;
	// nm -S: "0000000000001139 0000000000000023 T dt_pid_target_add"
	uint64_t start = 0;
	bool found = false;
	auto nm = run({"/usr/bin/nm", "-S", "--defined-only", path});
	for (const auto &l : lines(nm.out)) {
		std::istringstream s(l);
		std::string addr, size, type, name;
		if (s >> addr >> size >> type >> name && name == func) {
			start = hex(addr);
			f.size = hex(size);
			found = true;
			break;
		}
	}
	if (!found)
		return f;
	// objdump -d, one instruction per line (--insn-width keeps long
	// instructions' bytes on theirs):
	//   "    1139:\t8d 04 7f             \tlea    (%rdi,%rdi,2),%eax"
	// Alignment padding after the function is left out by its size.
	auto od = run({"/usr/bin/objdump", "-d", "--insn-width=16",
		       "--disassemble=" + func, path});
	for (const auto &l : lines(od.out)) {
		size_t colon = l.find(":\t");
		if (colon == std::string::npos)
			continue;
		std::string addr = l.substr(0, colon);
		size_t b = addr.find_first_not_of(' ');
		if (b == std::string::npos ||
		    addr.find_first_not_of("0123456789abcdef", b) != std::string::npos)
			continue;
		uint64_t a = hex(addr.substr(b));
		if (a < start || a >= start + f.size)
			continue;
		size_t bytes_end = l.find('\t', colon + 2);
		std::istringstream bs(l.substr(colon + 2, bytes_end - colon - 2));
		std::vector<uint8_t> bytes;
		std::string byte;
		while (bs >> byte)
			bytes.push_back(static_cast<uint8_t>(hex(byte)));
		f.insns.emplace_back(a - start, std::move(bytes));
	}
	return f;
}

} // namespace dt::test::pid
