// SPDX-License-Identifier: MIT
// Processes the host tests drive while they run: a child with its standard
// input and output on pipes, and dtrace(1) -x engine=bpf -q in the
// background once it has begun tracing.
#pragma once

#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace dt::test {

// A child with its standard input and output on pipes, killed and reaped
// on destruction.
struct child {
	pid_t pid = -1;
	int in = -1, out = -1;

	explicit child(const std::vector<std::string> &argv)
	{
		int i[2], o[2];
		if (pipe2(i, O_CLOEXEC) != 0 || pipe2(o, O_CLOEXEC) != 0)
			return;
		pid = fork();
		if (pid == 0) {
			dup2(i[0], 0);
			dup2(o[1], 1);
			std::vector<char *> v;
			for (const auto &a : argv)
				v.push_back(const_cast<char *>(a.c_str()));
			v.push_back(nullptr);
			execv(v[0], v.data());
			_exit(127);
		}
		close(i[0]);
		close(o[1]);
		in = i[1];
		out = o[0];
	}
	~child()
	{
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, nullptr, 0);
		}
	}
	// Read standard output until it holds `what` (or EOF, or 30 s).
	std::string read_until(const std::string &what)
	{
		std::string s;
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
		while (s.find(what) == std::string::npos &&
		       std::chrono::steady_clock::now() < end) {
			struct pollfd p = {out, POLLIN, 0};
			if (poll(&p, 1, 100) <= 0)
				continue;
			char buf[4096];
			ssize_t n = read(out, buf, sizeof(buf));
			if (n <= 0)
				break;
			s.append(buf, static_cast<size_t>(n));
		}
		return s;
	}
	void send(const std::string &bytes)
	{
		ASSERT_EQ(write(in, bytes.data(), bytes.size()),
			  static_cast<ssize_t>(bytes.size()));
	}
	void close_input()
	{
		close(in);
		in = -1;
	}
	// Wait for it to exit by itself; its status.
	int wait()
	{
		int ws = 0;
		waitpid(pid, &ws, 0);
		pid = -1;
		return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	}
};

// dtrace(1) -x engine=bpf -q ARGS in the background, once it has begun
// tracing (its BEGIN clause printed "begun").
struct background_dtrace {
	child c;
	std::string out;
	explicit background_dtrace(std::vector<std::string> args)
		: c([&] {
			  std::vector<std::string> v{"/usr/bin/timeout", "60",
						     dt::test::dtrace_bin()};
			  args.insert(args.begin(), {"-x", "engine=bpf", "-q"});
			  v.insert(v.end(), args.begin(), args.end());
			  v.insert(v.end(), {"-n", "BEGIN { printf(\"begun\\n\"); }"});
			  return v;
		  }())
	{
		out = c.read_until("begun\n");
	}
	bool begun() const { return out.find("begun\n") != std::string::npos; }
	// The rest of its output and its status, once it exits.
	std::string finish(int &status)
	{
		out += c.read_until("\x01never");
		status = c.wait();
		return out;
	}
};

} // namespace dt::test
