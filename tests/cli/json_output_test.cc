// SPDX-License-Identifier: MIT
// -x oformat=json (docs/json.md), one case per record kind: every
// tests/cli/json/tst.NAME.d runs as `dtrace -x oformat=json OPTS -s
// tst.NAME.d` (the user engine: BEGIN, END, ERROR, tick). Every line of
// stdout must be one JSON object that Poco's parser reads and valid
// UTF-8; with the firings' "timestamp" fields taken out (they vary) the
// lines must equal tst.NAME.jsonl, stderr tst.NAME.err (missing: empty),
// the exit status `@@status` (0). Directives as in the golden tier:
// `@@runtest-opts: ...`, `@@status: N`. DTRACE_GOLDEN_UPDATE=1 rewrites
// the expectations (check them by eye).
#include "consumer/json.hpp"
#include "run_dtrace.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const fs::path cases_dir = fs::path(DTRACE_TEST_JSON_CASES_DIR);

std::string read_file(const fs::path &p)
{
	std::ifstream in(p);
	if (!in)
		return {};
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

void write_or_remove(const fs::path &p, const std::string &s)
{
	if (s.empty())
		fs::remove(p);
	else
		std::ofstream(p) << s;
}

// `@@NAME: value` in the script, or "".
std::string directive(const std::string &script, const std::string &name)
{
	std::smatch m;
	if (std::regex_search(script, m, std::regex("@@" + name + ":\\s*([^*]*?)\\s*\\*/")))
		return m[1];
	return {};
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

std::vector<std::string> case_names()
{
	std::vector<std::string> v;
	for (const auto &e : fs::directory_iterator(cases_dir))
		if (e.path().extension() == ".d")
			v.push_back(e.path().stem().string());
	std::sort(v.begin(), v.end());
	return v;
}

class json_case : public ::testing::TestWithParam<std::string> {};

TEST_P(json_case, Matches)
{
	const fs::path base = cases_dir / GetParam();
	std::string script = read_file(base.string() + ".d");
	std::vector<std::string> args = {"-x", "oformat=json"};
	for (const auto &w : words(directive(script, "runtest-opts")))
		args.push_back(w);
	args.push_back("-s");
	args.push_back(GetParam() + ".d");
	// As the golden tier runs its cases: in the case's directory (messages
	// name the script as written), on the lowest CPU we may use (the
	// records' "cpu").
	fs::current_path(cases_dir);
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			if (CPU_ISSET(cpu, &set)) {
				CPU_ZERO(&set);
				CPU_SET(cpu, &set);
				EXPECT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
				break;
			}
		}
	}
	auto r = dt::test::dtrace(args);

	const std::regex timestamp("\"timestamp\":[0-9]+,");
	std::string out;
	for (const std::string &line : dt::test::lines(r.out)) {
		EXPECT_EQ(dt::consumer_impl::utf8_valid(line), line) << "not UTF-8: " << line;
		try {
			Poco::JSON::Parser p;
			auto v = p.parse(line);
			EXPECT_FALSE(v.extract<Poco::JSON::Object::Ptr>().isNull()) << line;
		} catch (const Poco::Exception &e) {
			ADD_FAILURE() << "not JSON (" << e.displayText() << "): " << line;
		}
		out += std::regex_replace(line, timestamp, "") + "\n";
	}
	std::string status = directive(script, "status");
	if (status.empty())
		status = "0";
	if (std::getenv("DTRACE_GOLDEN_UPDATE")) {
		write_or_remove(base.string() + ".jsonl", out);
		write_or_remove(base.string() + ".err", r.err);
		GTEST_SKIP() << "expectations rewritten";
	}
	EXPECT_EQ(out, read_file(base.string() + ".jsonl")) << "stdout of " << GetParam();
	EXPECT_EQ(r.err, read_file(base.string() + ".err")) << "stderr of " << GetParam();
	EXPECT_EQ(std::to_string(r.status), status) << "exit status of " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(json, json_case, ::testing::ValuesIn(case_names()),
			 [](const auto &param_info) {
				 std::string n = param_info.param;
				 std::replace(n.begin(), n.end(), '.', '_');
				 return n;
			 });

// utf8_valid() after the Unicode standard's table of well-formed
// sequences: what it keeps and what becomes U+FFFD, byte by byte.
TEST(json_utf8, keeps_well_formed_and_replaces_each_bad_byte)
{
	using dt::consumer_impl::utf8_valid;
	const std::string r = "\xef\xbf\xbd";
	EXPECT_EQ(utf8_valid("plain"), "plain");
	EXPECT_EQ(utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	EXPECT_EQ(utf8_valid("\xff"), r);
	EXPECT_EQ(utf8_valid("\x80x"), r + "x");
	EXPECT_EQ(utf8_valid("\xe2\x82"), r + r);		  // truncated
	EXPECT_EQ(utf8_valid("\xc0\xaf"), r + r);		  // overlong
	EXPECT_EQ(utf8_valid("\xe0\x80\xaf"), r + r + r);	  // overlong
	EXPECT_EQ(utf8_valid("\xed\xa0\x80"), r + r + r);	  // surrogate
	EXPECT_EQ(utf8_valid("\xf4\x90\x80\x80"), r + r + r + r); // above U+10FFFF
	EXPECT_EQ(utf8_valid("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
	EXPECT_EQ(utf8_valid(std::string("a\0b", 3)), std::string("a\0b", 3));
}

// A value that is not text nor json is refused as DTrace refuses any bad
// -x value (illumos dtrace.c: dfatal("failed to set -x ..."), exit status
// 1), before anything is traced.
TEST(json_option, bad_values_are_usage_errors)
{
	for (const char *opt : {"oformat=xml", "oformat=", "oformat", "stackfmt=flame"}) {
		auto r = dt::test::dtrace({"-x", opt, "-n", "BEGIN { exit(0); }"});
		EXPECT_EQ(r.status, 1) << opt;
		EXPECT_NE(r.err.find("Invalid value for specified option"), std::string::npos)
			<< opt << ": " << r.err;
		EXPECT_EQ(r.out, "") << opt;
	}
	auto r = dt::test::dtrace({"-x", "oformat=text", "-q", "-n", "BEGIN { exit(0); }"});
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.out, "\n");
}

// The format is fixed once tracing began: setopt() reports it.
TEST(json_option, setopt_cannot_change_it_while_tracing)
{
	auto r =
		dt::test::dtrace({"-q", "-n", "BEGIN { setopt(\"oformat\", \"json\"); exit(0); }"});
	EXPECT_EQ(r.status, 0);
	EXPECT_NE(r.err.find("Operation illegal when tracing is active"), std::string::npos)
		<< r.err;
	EXPECT_EQ(r.out, "\n");
}

} // namespace
