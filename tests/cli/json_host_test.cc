// SPDX-License-Identifier: MIT
// -x oformat=json and -x stackfmt=folded on the bpf engine (label host:
// root, this kernel; each test skips, saying why, without them):
//
//   a long mixed program   profile, syscall, printf, aggregations, stacks,
//                          a fault and its ERROR firing, exit(): jq reads
//                          every line of its output, one document each
//   folded vs printa       one aggregation keyed by execname, stack() and
//                          ustack(), printed by printa() as text and then
//                          folded (setopt("stackfmt", "folded")): the same
//                          frames, reversed as stackcollapse.pl reverses
//                          them, with the same counts
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string skip_reason()
{
	if (!dt::test::is_root())
		return "needs root (the bpf engine)";
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		return "no kernel BTF";
	return {};
}

bool have_jq()
{
	return dt::test::run({"/bin/sh", "-c", "command -v jq"}).status == 0;
}

struct temp_file {
	fs::path path;
	explicit temp_file(const std::string &name)
		: path(fs::temp_directory_path() / (name + "." + std::to_string(::getpid())))
	{
	}
	~temp_file() { fs::remove(path); }
};

TEST(json_host, jq_reads_every_line_of_a_long_mixed_run)
{
	if (auto why = skip_reason(); !why.empty())
		GTEST_SKIP() << why;
	if (!have_jq())
		GTEST_SKIP() << "jq is not installed (tools/install-deps.sh installs it)";
	const std::string prog = R"(
		profile-997 { @cpu[execname] = count(); @kstacks[stack()] = count(); }
		syscall::getppid:entry /ppid == $target/
		{
			printf("%s getppid #%d\n", execname, ++n);
			stack();
			@calls[probefunc] = count();
			@lat = quantize(n);
			@lin = lquantize(n, 0, 100, 10);
			@stk[ustack()] = count();
		}
		syscall::getppid:entry /ppid == $target && n == 5/
		{
			trace(*(int *)8);
		}
		ERROR { printf("fault %d at %x", arg4, arg5); }
		tick-100ms { ticks++; trace(ticks); }
		tick-100ms /n == 20/ { waited++; }
		tick-100ms /waited == 2/ { printa(@calls); printa("%s %@d\n", @calls); }
		tick-100ms /waited == 4/ { exit(4); }
	)";
	temp_file out("dtrace-json-mixed");
	// 20 getppid() calls, then CPU work that outlasts tracing: printa()
	// two ticks after the last call (aggregations are read every 20 ms),
	// exit() two ticks later.
	const std::string w = DT_JSON_WORKLOAD;
	temp_file script("dtrace-json-mixed.sh");
	std::ofstream(script.path) << w << " getppid 20\n" << w << " spin 3000\n";
	auto r = dt::test::dtrace({"-q", "-x", "engine=bpf", "-x", "aggrate=20ms", "-x",
				   "oformat=json", "-o", out.path.string(), "-n", prog, "-c",
				   "/bin/sh " + script.path.string()});
	ASSERT_EQ(r.status, 4) << r.err;

	std::ifstream in(out.path);
	std::vector<std::string> lines;
	for (std::string l; std::getline(in, l);)
		lines.push_back(l);
	ASSERT_GT(lines.size(), 20u);

	// Every line through jq: one document per line, each an object with a
	// type; jq -c writes each document back on one line.
	auto jq = dt::test::run({"/bin/sh", "-c",
				 "jq -c 'if type == \"object\" and has(\"type\") then .type "
				 "else error(\"no type\") end' < " +
					 out.path.string()});
	ASSERT_EQ(jq.status, 0) << jq.err;
	auto types = dt::test::lines(jq.out);
	ASSERT_EQ(types.size(), lines.size()) << "one JSON document per line";
	std::map<std::string, int> seen;
	for (const auto &t : types)
		seen[t]++;
	EXPECT_GE(seen["\"probe\""], 20) << jq.out;
	EXPECT_EQ(seen["\"error\""], 1) << jq.out;
	EXPECT_EQ(seen["\"aggregation\""], 5) << jq.out; // all but @calls
	EXPECT_EQ(seen["\"end\""], 1) << jq.out;
	EXPECT_EQ(types.back(), "\"end\"");

	// What the records hold, asked of jq.
	auto ask = [&](const std::string &filter) {
		auto q = dt::test::run(
			{"/bin/sh", "-c", "jq -c '" + filter + "' < " + out.path.string()});
		EXPECT_EQ(q.status, 0) << filter << ": " << q.err;
		return q.out;
	};
	EXPECT_EQ(ask("select(.type == \"end\") | .status"), "4\n");
	EXPECT_EQ(ask("select(.type == \"error\") | [.fault, .address, .provider, .name]"),
		  "[\"invalid address\",\"0x8\",\"syscall\",\"entry\"]\n");
	EXPECT_EQ(ask("select(.type == \"probe\" and .name == \"ERROR\") | .output[0].args[0]"),
		  "1\n");
	EXPECT_EQ(ask("select(.type == \"probe\" and .function == \"getppid\") | "
		      ".output[0].message | select(test(\"getppid #20\\n\"))"),
		  "\"dt_bpf_workload getppid #20\\n\"\n");
	EXPECT_EQ(ask("select(.type == \"probe\") | .output[] | select(has(\"printa\")) | "
		      ".printa[0][\"aggregation-data\"][0].count"),
		  "20\n20\n")
		<< "printa after the getppid calls";
	EXPECT_EQ(ask("select(.type == \"probe\") | .output[] | select(has(\"printa\")) | "
		      ".message"),
		  "null\n\"getppid 20\\n\"\n");
	EXPECT_EQ(ask("select(.type == \"aggregation\" and .[\"aggregation-name\"] == \"lin\") | "
		      "[.[\"aggregation-data\"][0].buckets[] | .count] | add"),
		  "20\n");
	EXPECT_EQ(ask("select(.type == \"aggregation\" and .[\"aggregation-name\"] == \"lat\") | "
		      ".[\"aggregation-data\"][0].buckets[-1] | [.value, .min, .max, .count]"),
		  "[16,16,31,5]\n");
	// Stacks as frame arrays, frames with their symbols and addresses.
	std::string vmlinux20;
	for (int i = 0; i < 20; i++)
		vmlinux20 += "[\"vmlinux\"]\n";
	EXPECT_EQ(ask("select(.type == \"probe\" and .function == \"getppid\") | "
		      ".output[1][\"stack-frames\"] | map(.module) | unique"),
		  vmlinux20);
	EXPECT_EQ(ask("select(.type == \"aggregation\" and .[\"aggregation-name\"] == \"stk\") | "
		      "[.[\"aggregation-data\"][].keys[0][] | (.address | test(\"^0x\"))] | "
		      "all"),
		  "true\n");
}

// One entry of printa()'s text for @[execname, stack(), ustack()]: the
// execname line, the kernel frames, a blank line, the user frames, then
// the count on a line of its own.
struct text_entry {
	std::string execname;
	std::vector<std::string> kernel, user;
	long long count = 0;
};

std::string trim(const std::string &s)
{
	size_t b = s.find_first_not_of(' ');
	size_t e = s.find_last_not_of(' ');
	return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// stackcollapse.pl's frame rules, written again here from its source.
std::string collapse(std::string f)
{
	f = std::regex_replace(f, std::regex("\\+[^+]*$"), "");
	f = std::regex_replace(f, std::regex("^(..)[(<].*"), "$1");
	return f.empty() ? "-" : f;
}

TEST(json_host, folded_lines_are_printa_frames_reversed)
{
	if (auto why = skip_reason(); !why.empty())
		GTEST_SKIP() << why;
	const std::string prog = R"(
		syscall::getppid:entry /pid == $target/ { @[execname, stack(), ustack()] = count(); }
		syscall::getppid:return /pid == $target/ { @[execname, stack(), ustack()] = count(); }
		END { printa(@); setopt("stackfmt", "folded"); printf("FOLDED\n"); printa(@); }
	)";
	auto r = dt::test::dtrace({"-q", "-x", "engine=bpf", "-n", prog, "-c",
				   std::string(DT_JSON_WORKLOAD) + " getppid 7"});
	ASSERT_EQ(r.status, 0) << r.err;
	size_t mark = r.out.find("FOLDED\n");
	ASSERT_NE(mark, std::string::npos) << r.out;
	auto text = dt::test::lines(r.out.substr(0, mark));
	auto folded = dt::test::lines(r.out.substr(mark + 7));

	// The text table, entry by entry.
	std::vector<text_entry> entries;
	text_entry cur;
	int part = 0; // 0 execname, 1 kernel frames, 2 user frames
	for (const auto &line : text) {
		std::string t = trim(line);
		if (part == 0 && t.empty())
			continue;
		if (std::regex_match(t, std::regex("[0-9]+")) && part > 0) {
			cur.count = std::stoll(t);
			entries.push_back(cur);
			cur = {};
			part = 0;
			continue;
		}
		if (part == 0) {
			cur.execname = t;
			part = 1;
		} else if (part == 1 && t.empty()) {
			part = 2;
		} else if (part == 1) {
			cur.kernel.push_back(t);
		} else if (!t.empty()) {
			cur.user.push_back(t);
		}
	}
	ASSERT_FALSE(entries.empty()) << r.out;

	// What stackcollapse.pl makes of it, with the key first.
	std::map<std::string, long long> want;
	long long total = 0;
	for (const auto &e : entries) {
		std::string l = e.execname;
		for (auto f = e.user.rbegin(); f != e.user.rend(); ++f)
			l += ";" + collapse(*f);
		for (auto f = e.kernel.rbegin(); f != e.kernel.rend(); ++f)
			l += ";" + collapse(*f);
		want[l] += e.count;
		total += e.count;
	}
	EXPECT_EQ(total, 14) << "7 entries and 7 returns";
	std::string want_text;
	for (const auto &[l, c] : want)
		want_text += l + " " + std::to_string(c) + "\n";
	std::string got_text;
	for (const auto &l : folded)
		got_text += l + "\n";
	EXPECT_EQ(got_text, want_text) << "text:\n" << r.out;
	for (const auto &l : folded) {
		EXPECT_EQ(l.rfind("dt_bpf_workload;", 0), 0u) << l;
		EXPECT_EQ(l.find('+'), std::string::npos) << "offsets stripped: " << l;
	}
}

} // namespace
