// SPDX-License-Identifier: MIT
//
// The golden tier (docs/architecture.md §7): D scripts run by the built dtrace(1),
// compared with what DTrace prints. One GoogleTest test -- and so one
// ctest test -- per case, named <area>_<file name>:
//
//   cases/<area>/tst.NAME.d          must succeed; stdout and stderr,
//                                    merged in the order written, must
//                                    equal tst.NAME.r byte for byte; the
//                                    exit status must be 0, or N if the
//                                    script says  /* @@status: N */
//   cases/<area>/err.D_TAG.NAME.d    must fail (status 1 unless @@status);
//                                    the output must equal err.D_TAG.NAME.r
//                                    and, run again with -x errtags, the
//                                    message must carry "[D_TAG]" (illumos'
//                                    dtest checks tags the same way)
//
//   /* @@runtest-opts: -q -x bufsize=1k */   extra options, before -s
//   /* @@runtest-args: 42 hello */          operands after the script ($1 ...)
//   /* @@timeout: 30 */                      seconds (default 60)
//
// dtrace runs as `dtrace OPTS -s tst.NAME.d ARGS` in the case's directory (so
// messages name the script as written), stdin /dev/null, pinned to one
// CPU (the lowest it may use) so that the default output's CPU column and
// `cpu` are the same on every run. No other filtering is applied: a case
// whose output cannot be made deterministic does not belong here.
//
// DTRACE_GOLDEN_UPDATE=1 rewrites the .r files from the actual output;
// check every rewritten file by eye against what DTrace would print.
//
// Built a second time as golden_bpf_tests (DTRACE_GOLDEN_ENGINE="bpf",
// label host): every case runs again with -x engine=bpf and must give the
// same output, except the cases listed in engine-bpf.skip, each with the
// reason printed when it is skipped (docs/architecture.md §2: one golden suite proves
// that every engine gives the same output).
//
// DTRACE_GOLDEN_ENGINE=<name> in the environment chooses the engine at
// run time instead (either binary): -x engine=<name>, skip list
// engine-<name>.skip. tests/vm/golden-kmod-test.sh runs golden_tests so in
// the VM guest with DTRACE_GOLDEN_ENGINE=kmod (ctest vm.golden_kmod).
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace {

const fs::path cases_dir = fs::path(DTRACE_GOLDEN_CASES_DIR);

struct golden_case {
	std::string name; // test name
	fs::path script;
	bool is_err = false;
	std::string tag; // err: D_TAG
};

// How gtest shows a case in its messages.
[[maybe_unused]] void PrintTo(const golden_case &c, std::ostream *os)
{
	*os << c.script.string();
}

std::string slurp(const fs::path &p)
{
	std::ifstream in(p, std::ios::binary);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

std::string sanitize(std::string s)
{
	for (char &c : s)
		if (!std::isalnum(static_cast<unsigned char>(c)))
			c = '_';
	return s;
}

std::vector<golden_case> find_cases()
{
	std::vector<golden_case> v;
	if (!fs::exists(cases_dir))
		return v;
	for (const auto &e : fs::recursive_directory_iterator(cases_dir)) {
		if (!e.is_regular_file() || e.path().extension() != ".d")
			continue;
		std::string file = e.path().filename().string();
		golden_case c;
		c.script = e.path();
		std::string area = fs::relative(e.path().parent_path(), cases_dir).string();
		std::string stem = file.substr(0, file.size() - 2);
		if (file.starts_with("tst.")) {
			c.name = sanitize(area + "_" + stem.substr(4));
		} else if (file.starts_with("err.")) {
			c.is_err = true;
			std::string rest = stem.substr(4);
			auto dot = rest.find('.');
			c.tag = rest.substr(0, dot);
			c.name = sanitize(area + "_err_" + rest);
		} else {
			continue; // helpers (included files, ...) are not cases
		}
		v.push_back(c);
	}
	std::sort(v.begin(), v.end(),
		  [](const golden_case &a, const golden_case &b) { return a.name < b.name; });
	return v;
}

// The value of a  /* @@key: value */  comment, if any.
std::optional<std::string> directive(const std::string &text, const std::string &key)
{
	std::regex re("/\\*\\s*@@" + key + ":\\s*(.*?)\\s*\\*/");
	std::smatch m;
	if (std::regex_search(text, m, re))
		return m[1].str();
	return std::nullopt;
}

std::vector<std::string> words(const std::string &s)
{
	std::vector<std::string> v;
	std::istringstream in(s);
	std::string w;
	while (in >> w)
		v.push_back(w);
	return v;
}

struct outcome {
	std::string output; // stdout and stderr, merged
	int status = -1;
	bool timed_out = false;
};

outcome run_case(const fs::path &dir, const std::vector<std::string> &args, int timeout_s)
{
	// $TMPDIR: in the VM guest /tmp is the host's, read-only.
	std::string tmpl = (fs::temp_directory_path() / "dt-golden-XXXXXX").string();
	int fd = mkstemp(tmpl.data());
	if (fd < 0)
		throw std::runtime_error("mkstemp failed");
	unlink(tmpl.c_str());
	pid_t pid = fork();
	if (pid < 0)
		throw std::runtime_error("fork failed");
	if (pid == 0) {
		if (chdir(dir.c_str()) != 0)
			_exit(126);
		cpu_set_t set;
		if (sched_getaffinity(0, sizeof(set), &set) == 0) {
			for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
				if (CPU_ISSET(cpu, &set)) {
					CPU_ZERO(&set);
					CPU_SET(cpu, &set);
					sched_setaffinity(0, sizeof(set), &set);
					break;
				}
			}
		}
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		setpgid(0, 0);
		std::vector<char *> argv;
		std::string bin = dt::test::dtrace_bin();
		argv.push_back(bin.data());
		std::vector<std::string> copy = args;
		for (auto &a : copy)
			argv.push_back(a.data());
		argv.push_back(nullptr);
		execv(argv[0], argv.data());
		_exit(127);
	}
	outcome o;
	int ws = 0;
	auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
	for (;;) {
		pid_t r = waitpid(pid, &ws, WNOHANG);
		if (r == pid)
			break;
		if (std::chrono::steady_clock::now() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &ws, 0);
			o.timed_out = true;
			break;
		}
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
	}
	o.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	lseek(fd, 0, SEEK_SET);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		o.output.append(buf, static_cast<size_t>(n));
	close(fd);
	return o;
}

// The engine the cases run on: $DTRACE_GOLDEN_ENGINE, else the one built
// in (golden_bpf_tests), else "" (dtrace's own choice, no -x engine).
const std::string &golden_engine()
{
	static const std::string engine = [] {
		if (const char *e = std::getenv("DTRACE_GOLDEN_ENGINE"); e != nullptr && *e != '\0')
			return std::string(e);
#ifdef DTRACE_GOLDEN_ENGINE
		return std::string(DTRACE_GOLDEN_ENGINE);
#else
		return std::string();
#endif
	}();
	return engine;
}

// engine-<name>.skip: "<case name> <reason...>" lines; # comments.
std::optional<std::string> engine_skip(const std::string &name)
{
	std::ifstream in(fs::path(DTRACE_GOLDEN_CASES_DIR).parent_path() /
			 ("engine-" + golden_engine() + ".skip"));
	for (std::string line; std::getline(in, line);) {
		if (line.empty() || line[0] == '#')
			continue;
		auto sp = line.find_first_of(" \t");
		if (line.substr(0, sp) == name)
			return sp == std::string::npos
				       ? ""
				       : line.substr(line.find_first_not_of(" \t", sp));
	}
	return std::nullopt;
}

// Why the engine cannot run here, if it cannot ("" if it can).
const std::string &engine_unavailable()
{
	static const std::string why = [] {
		outcome o = run_case(
			fs::temp_directory_path(),
			{"-x", "engine=" + golden_engine(), "-qn", "BEGIN { exit(0); }"}, 60);
		return o.status == 0 ? std::string() : o.output;
	}();
	return why;
}

class golden : public ::testing::TestWithParam<golden_case> {};

TEST_P(golden, MatchesDTrace)
{
	const golden_case &c = GetParam();
	std::string text = slurp(c.script);
	std::vector<std::string> args = words(directive(text, "runtest-opts").value_or(""));
	if (const std::string &engine = golden_engine(); !engine.empty()) {
		if (auto why = engine_skip(c.name))
			GTEST_SKIP() << "not on the " << engine << " engine: " << *why;
		if (!engine_unavailable().empty())
			GTEST_SKIP() << "the " << engine
				     << " engine cannot run here: " << engine_unavailable();
		if (std::getenv("DTRACE_GOLDEN_UPDATE"))
			GTEST_SKIP() << "expected output is rewritten by golden_tests only, "
					"without an engine";
		args.insert(args.begin(), {"-x", "engine=" + engine});
	}
	int want_status = c.is_err ? 1 : 0;
	if (auto s = directive(text, "status"))
		want_status = std::atoi(s->c_str());
	int timeout = std::atoi(directive(text, "timeout").value_or("60").c_str());
	args.push_back("-s");
	args.push_back(c.script.filename().string());
	for (const std::string &a : words(directive(text, "runtest-args").value_or("")))
		args.push_back(a);

	outcome o = run_case(c.script.parent_path(), args, timeout);
	ASSERT_FALSE(o.timed_out) << c.script << " ran for more than " << timeout << "s; output:\n"
				  << o.output;
	fs::path expect = c.script;
	expect.replace_extension(".r");
	if (std::getenv("DTRACE_GOLDEN_UPDATE")) {
		std::ofstream(expect, std::ios::binary) << o.output;
		GTEST_SKIP() << "rewrote " << expect << ": check it by eye";
	}
	ASSERT_TRUE(fs::exists(expect)) << "no expected output " << expect;
	EXPECT_EQ(o.output, slurp(expect)) << "output of " << c.script;
	EXPECT_EQ(o.status, want_status) << "exit status of " << c.script;

	// Only D_ tags are printed by -x errtags (illumos xyerror()); an EDT_
	// case is checked by its message alone.
	if (c.is_err && c.tag.rfind("D_", 0) == 0) {
		std::vector<std::string> targs = {"-x", "errtags"};
		targs.insert(targs.end(), args.begin(), args.end());
		outcome t = run_case(c.script.parent_path(), targs, timeout);
		EXPECT_NE(t.output.find("[" + c.tag + "]"), std::string::npos)
			<< c.script << " did not fail with " << c.tag << " (-x errtags):\n"
			<< t.output;
	}
}

#ifdef DTRACE_GOLDEN_ENGINE
#define GOLDEN_PREFIX bpf_engine
#else
#define GOLDEN_PREFIX cases
#endif
INSTANTIATE_TEST_SUITE_P(GOLDEN_PREFIX, golden, ::testing::ValuesIn(find_cases()),
			 [](const auto &param_info) { return param_info.param.name; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(golden);

} // namespace
