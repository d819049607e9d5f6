// SPDX-License-Identifier: MIT
// Speculations on the bpf engine, end to end on real system calls: the
// built dtrace(1) with -x engine=bpf traces the workload (-c), and the
// output is checked against what the workload itself did (which openat()
// calls failed, how many getppid() calls it made).
#include "cli_support.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

namespace {

using dt::test::result;

result dtrace(std::vector<std::string> args, const std::map<std::string, std::string> &env = {})
{
	std::vector<std::string> argv{"/usr/bin/timeout", "120", dt::test::dtrace_bin(), "-x",
				      "engine=bpf"};
	argv.insert(argv.end(), args.begin(), args.end());
	return dt::test::run(argv, env);
}

// The sum of N over "dtrace: N <what>" lines.
long total(const std::string &err, const std::string &what)
{
	long n = 0;
	std::regex re("^dtrace: (\\d+) " + what);
	for (const std::string &l : dt::test::lines(err)) {
		std::smatch sm;
		if (std::regex_search(l, sm, re))
			n += std::stol(sm[1]);
	}
	return n;
}

// Programs both engines run (BEGIN, END, ERROR): the same output, byte
// for byte, the same status (cli_support.hpp, pinned to one CPU as the
// golden tier), and some output at all.
void expect_same_as_user(const std::vector<std::string> &args)
{
	SCOPED_TRACE(args.back());
	result u = dt::test::bpf_cli::expect_same_as_user(args);
	EXPECT_FALSE(u.out.empty() && u.err.empty()) << "no output at all";
}

TEST(bpf_speculation, as_on_the_user_engine)
{
	REQUIRE_BPF();
	// Not quiet: the committing clause's own firing comes before the data.
	expect_same_as_user({"-n", "BEGIN { s = speculation(); } BEGIN { speculate(s); trace(1); "
				   "trace(\"x\"); } BEGIN { trace(2); } BEGIN { commit(s); } "
				   "BEGIN { exit(0); }"});
	// An id above nspec: illegal operation, the firing dropped.
	expect_same_as_user({"-n", "BEGIN { speculate(5); trace(1); } BEGIN { exit(0); }"});
	expect_same_as_user({"-n", "BEGIN { commit(7); } BEGIN { exit(0); }"});
	// A fault after speculate(): ERROR runs, nothing is speculated.
	expect_same_as_user({"-qn",
			     "BEGIN { s = speculation(); } BEGIN { speculate(s); "
			     "printf(\"never %d\\n\", 1 / 0); } ERROR { printf(\"error\\n\"); "
			     "} BEGIN { commit(s); } BEGIN { exit(0); }"});
	// An id is free again once committed; speculating into it after the
	// commit drops the firing.
	expect_same_as_user(
		{"-qn",
		 "BEGIN { a = speculation(); b = speculation(); c = speculation(); "
		 "printf(\"%d %d %d\\n\", a, b, c); } BEGIN { speculate(a); "
		 "printf(\"a\\n\"); } BEGIN { commit(a); } BEGIN { speculate(a); "
		 "printf(\"late\\n\"); } BEGIN { d = speculation(); printf(\"d=%d\\n\", d); } "
		 "BEGIN { speculate(d); printf(\"in d\\n\"); } BEGIN { commit(d); } "
		 "BEGIN { exit(0); }",
		 "-x", "nspec=2"});
	// Committed in END: the data comes out at the end.
	expect_same_as_user({"-qn",
			     "BEGIN { s = speculation(); } BEGIN { speculate(s); "
			     "printf(\"x\\n\"); } BEGIN { printf(\"y\\n\"); exit(0); } END { "
			     "commit(s); }"});
}

// A speculation per openat(): the path on entry, errno on return, all
// committed only when the call failed. The workload's openat() calls of
// DIR/dt-spec-missing-<i> fail (ENOENT) and those of /dev/null succeed:
// exactly the former must come out, each with its errno, in order.
TEST(bpf_speculation, openat_committed_only_when_it_fails)
{
	REQUIRE_BPF();
	const int n = 25;
	auto dir = std::filesystem::temp_directory_path() /
		   ("dt-bpf-spec-" + std::to_string(getpid()));
	std::filesystem::create_directories(dir);
	const std::string prog = R"D(
syscall::openat:entry
/pid == $target/
{
	self->spec = speculation();
	speculate(self->spec);
	printf("open %s\n", copyinstr(arg1));
}

syscall::openat:return
/self->spec/
{
	speculate(self->spec);
	printf("errno %d\n", errno);
}

syscall::openat:return
/self->spec && errno != 0/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::openat:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}
)D";
	result r = dtrace({"-q", "-n", prog, "-c",
			   std::string(DT_BPF_WORKLOAD) + " openfail " + std::to_string(n)},
			  {{"DT_SPEC_DIR", dir.string()}});
	std::filesystem::remove_all(dir);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(total(r.err, "failed speculation"), 0) << r.err;
	EXPECT_EQ(total(r.err, "speculative drop"), 0) << r.err;

	// "open PATH" then "errno N", for every committed speculation.
	std::vector<std::string> ls;
	for (const std::string &l : dt::test::lines(r.out))
		if (!l.empty()) // (dtrace ends its output with an empty line)
			ls.push_back(l);
	std::vector<std::string> ours;
	ASSERT_EQ(ls.size() % 2, 0U) << r.out;
	for (size_t i = 0; i + 1 < ls.size(); i += 2) {
		ASSERT_EQ(ls[i].rfind("open ", 0), 0U) << r.out;
		ASSERT_EQ(ls[i + 1].rfind("errno ", 0), 0U) << r.out;
		std::string path = ls[i].substr(5);
		long err = std::stol(ls[i + 1].substr(6));
		// Only failed calls: none of /dev/null, each with an errno.
		EXPECT_NE(err, 0) << r.out;
		EXPECT_NE(path, "/dev/null") << r.out;
		if (path.find("/dt-spec-missing-") != std::string::npos) {
			EXPECT_EQ(err, 2) << path; // ENOENT
			ours.push_back(path);
		}
	}
	ASSERT_EQ(ours.size(), static_cast<size_t>(n)) << r.out << r.err;
	for (int i = 0; i < n; i++)
		EXPECT_EQ(ours[static_cast<size_t>(i)],
			  (dir / ("dt-spec-missing-" + std::to_string(i))).string());
}

// nspec=1 and speculations never ended: the first getppid() gets id 1,
// every later one finds none free and is counted as a failed speculation.
TEST(bpf_speculation, exhausted_speculations_are_counted)
{
	REQUIRE_BPF();
	const int n = 200;
	result r = dtrace({"-q", "-x", "nspec=1", "-n",
			   "syscall::getppid:entry /pid == $target/ { printf(\"%d\\n\", "
			   "speculation()); }",
			   "-c", std::string(DT_BPF_WORKLOAD) + " getppid " + std::to_string(n)});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(total(r.err, "failed speculations? \\(no speculative buffer available\\)"), n - 1)
		<< r.err;
	// One call got id 1, the n - 1 after it got 0.
	std::vector<std::string> ids;
	for (const std::string &l : dt::test::lines(r.out))
		if (!l.empty())
			ids.push_back(l);
	ASSERT_EQ(ids.size(), static_cast<size_t>(n)) << r.out;
	EXPECT_EQ(ids[0], "1");
	EXPECT_EQ(std::count(ids.begin(), ids.end(), "0"), n - 1) << r.out;
}

// specsize: each speculation holds at most specsize bytes per CPU; the
// firings beyond are speculative drops, the rest are committed.
TEST(bpf_speculation, specsize_limits_what_a_speculation_holds)
{
	REQUIRE_BPF();
	// Each firing: the record header (12 bytes), speculate()'s id and
	// printf()'s argument (ints, 4 bytes each), rounded to 8: 24 bytes;
	// 100 bytes hold 4 of the 10.
	const std::string prog = R"D(
int s, n;

syscall::getppid:entry
/pid == $target && !s/
{
	s = speculation();
}

syscall::getppid:entry
/pid == $target && s/
{
	speculate(s);
	printf("%d\n", n++);
}

syscall::exit_group:entry
/pid == $target/
{
	commit(s);
}
)D";
	result r = dtrace({"-q", "-x", "specsize=100", "-n", prog, "-c",
			   std::string(DT_BPF_WORKLOAD) + " getppid 10"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(total(r.err, "speculative drops?"), 6) << r.err;
	EXPECT_EQ(r.out, "0\n1\n2\n3\n\n") << r.out;
}

} // namespace
