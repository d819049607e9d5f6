// SPDX-License-Identifier: MIT
// What the bpf engine's end-to-end tests (runtime_cli*_test.cc) share:
// whether bpf() works here (REQUIRE_BPF skips, saying why, where it does
// not), dtrace(1) with a time limit pinned to one CPU, and one program on
// both engines.
#pragma once

#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace dt::test::bpf_cli {

inline std::string bpf_unusable()
{
	if (!dt::test::is_root())
		return "not root";
	LIBBPF_OPTS(bpf_map_create_opts, o);
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_probe", 4, 8, 1, &o);
	if (fd < 0)
		return std::string("bpf(): ") + std::strerror(errno);
	close(fd);
	return "";
}

#define REQUIRE_BPF()                                                              \
	do {                                                                       \
		if (std::string why = dt::test::bpf_cli::bpf_unusable(); !why.empty()) \
			GTEST_SKIP() << "the bpf engine cannot run here: " << why; \
	} while (0)

// The lowest CPU we may use (as the golden tier pins dtrace, so that the
// CPU column is the same on every run).
inline std::string lowest_cpu()
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				return std::to_string(c);
	return "0";
}

// dtrace with a time limit (a hang fails the test instead of the run),
// pinned to one CPU.
inline result dtrace(std::vector<std::string> args, int seconds = 60)
{
	std::vector<std::string> argv{"/usr/bin/timeout", std::to_string(seconds),
				      "/usr/bin/taskset", "-c",
				      lowest_cpu(),	  dt::test::dtrace_bin()};
	argv.insert(argv.end(), args.begin(), args.end());
	return dt::test::run(argv);
}

// "-x engine=bpf -q" and then `args`: a program on the bpf engine whose
// output is only its own.
inline std::vector<std::string> bpf(std::vector<std::string> args)
{
	args.insert(args.begin(), {"-x", "engine=bpf", "-q"});
	return args;
}

// Same program on both engines: same output, same status. Returns what
// the user engine gave.
inline result expect_same_as_user(const std::vector<std::string> &args)
{
	std::vector<std::string> b{"-x", "engine=bpf"}, u{"-x", "engine=user"};
	b.insert(b.end(), args.begin(), args.end());
	u.insert(u.end(), args.begin(), args.end());
	result rb = dtrace(b), ru = dtrace(u);
	EXPECT_EQ(rb.out, ru.out);
	EXPECT_EQ(rb.err, ru.err);
	EXPECT_EQ(rb.status, ru.status);
	return ru;
}

} // namespace dt::test::bpf_cli
