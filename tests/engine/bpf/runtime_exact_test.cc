// SPDX-License-Identifier: MIT
// The bpf engine under load, end to end (issue 12, items 1 and 2): an
// aggregation counts every one of 10^6 known events while snapshots run
// all along (aggs.hpp: exact snapshots by generation), run after run; and
// 10^6 printf events at full speed from one process arrive, every line,
// with default options and no drop (ring.hpp: the wakeup mark).
#include "cli_support.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using dt::test::result;
using namespace dt::test::bpf_cli;

const char *workload()
{
	return DT_BPF_WORKLOAD;
}

constexpr long k_events = 1'000'000;

// Drop messages in stderr ("dtrace: N drops on CPU c", any kind).
std::vector<std::string> drop_lines(const std::string &err)
{
	std::vector<std::string> out;
	for (const std::string &l : dt::test::lines(err))
		if (l.find("drop") != std::string::npos)
			out.push_back(l);
	return out;
}

TEST(bpf_exact, a_count_of_a_million_known_calls_is_exact_run_after_run)
{
	REQUIRE_BPF();
	// Snapshots every millisecond (aggrate) and a tick that prints and
	// clears what they gave: the printed counts add up to every call the
	// target made, END printing the last of them. Not pinned: the target
	// updates the map on one CPU while dtrace reads it on another (on one
	// CPU the race this guards against is rare).
	const std::string prog = "syscall::getppid:entry /pid == $target/ { @ = count(); } "
				 "tick-1ms { printa(\"%@d\\n\", @); clear(@); } "
				 "END { printa(\"%@d\\n\", @); }";
	for (int run = 1; run <= 5; run++) {
		result r = dt::test::run(
			{"/usr/bin/timeout", "60", dt::test::dtrace_bin(), "-x", "engine=bpf", "-x",
			 "aggrate=1ms", "-q", "-n", prog, "-c",
			 std::string(workload()) + " getppid " + std::to_string(k_events)});
		ASSERT_EQ(r.status, 0) << r.err;
		long total = 0, prints = 0;
		for (const std::string &l : dt::test::lines(r.out)) {
			if (l.empty())
				continue;
			total += std::stol(l);
			prints++;
		}
		EXPECT_EQ(total, k_events) << "run " << run << ": " << prints << " prints";
		EXPECT_GT(prints, 2) << "run " << run << ": no snapshot during the run";
		EXPECT_TRUE(drop_lines(r.err).empty()) << r.err;
	}
}

TEST(bpf_exact, a_million_printf_lines_arrive_with_default_options)
{
	REQUIRE_BPF();
	// As fast as one process can make system calls; dtrace and the target
	// share one CPU (cli_support's dtrace()), so the ring fills while
	// dtrace sleeps and only its wakeup at the mark drains it in time.
	std::string out = ::testing::TempDir() + "dt_bpf_exact_printf.out";
	result r = dtrace({"-x", "engine=bpf", "-q", "-o", out, "-n",
			   "syscall::getppid:entry /pid == $target/ { printf(\"%d %s\\n\", pid, "
			   "execname); }",
			   "-c", std::string(workload()) + " getppid " + std::to_string(k_events)},
			  120);
	ASSERT_EQ(r.status, 0) << r.err;
	result lines = dt::test::run({"/usr/bin/grep", "-c", " dt_bpf_workload$", out});
	std::remove(out.c_str());
	EXPECT_EQ(lines.out, std::to_string(k_events) + "\n");
	EXPECT_TRUE(drop_lines(r.err).empty()) << r.err;
}

} // namespace
