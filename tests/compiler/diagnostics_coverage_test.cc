// SPDX-License-Identifier: MIT
//
// The rule "every diagnostic tag has a test", kept true: every X(TAG) of
// core/compiler/diagnostics.def must have at least one golden case
// tests/golden/cases/<area>/err.TAG.NAME.d (with its .r), and every
// err.TAG.*.d case must name a tag that the .def still lists (a renamed or
// removed tag leaves no stale case behind). The golden runner itself checks
// that each case really raises its tag (-x errtags).
//
// k_no_golden lists the few tags that no golden case can show, each with
// the reason and where it is tested instead; keep it short.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::string> k_no_golden = {
	{"EDT_CPPERR", "cpp(1) prints its own message, whose words depend on the installed "
		       "gcc; tests/compiler/diagnostics_test.cc checks the tag and wording"},
	{"D_PRAGMA_DEPEND", "depends on whether this machine has kernel BTF"},
	{"D_SYM_NOTYPES", "depends on this machine's kallsyms and BTF; "
			  "tests/compiler/kernel_syms_test.cc checks it with a kallsyms file"},
	{"D_TYPE_ERR", "raised only when the parser knows a typedef that sema cannot "
		       "resolve; no script reaches it"},
	{"D_CG_DYN", "code generator's internal errors on trees sema rejects first"},
	{"D_PROC_ALIGN", "which offsets fall inside an instruction depends on the traced "
			 "binary's code; plugins/pid/tests/pid_cli_test.cc finds one with "
			 "objdump and checks the tag and wording"},
	{"EDT_NOREG", "the code generator spills registers where DIF's seven run out; "
		      "what is left (an lvalue's address computed while its value is held) "
		      "has no golden case yet"},
};

std::set<std::string> def_tags()
{
	std::ifstream in(DTRACE_DIAGNOSTICS_DEF);
	std::set<std::string> tags;
	const std::regex x(R"(^X\(([A-Z_0-9]+)\))");
	std::smatch m;
	for (std::string line; std::getline(in, line);)
		if (std::regex_search(line, m, x))
			tags.insert(m[1]);
	return tags;
}

// tag -> case files (err.TAG.NAME.d) under tests/golden/cases/.
std::multiset<std::string> case_tags(std::set<std::string> *missing_r)
{
	std::multiset<std::string> tags;
	for (const auto &e : fs::recursive_directory_iterator(DTRACE_GOLDEN_CASES_DIR)) {
		const std::string f = e.path().filename().string();
		if (f.rfind("err.", 0) != 0 || e.path().extension() != ".d")
			continue;
		const size_t dot = f.find('.', 4);
		if (dot == std::string::npos)
			continue;
		tags.insert(f.substr(4, dot - 4));
		fs::path r = e.path();
		r.replace_extension(".r");
		if (!fs::exists(r))
			missing_r->insert(e.path().string());
	}
	return tags;
}

TEST(diagnostics_coverage, DefIsReadable)
{
	// The .def lists the D_SYNTAX tag at least; an empty set means the
	// path or the pattern is wrong and the other tests would prove nothing.
	const auto tags = def_tags();
	EXPECT_GT(tags.size(), 50u);
	EXPECT_TRUE(tags.count("D_SYNTAX"));
}

TEST(diagnostics_coverage, EveryTagHasAGoldenCase)
{
	std::set<std::string> missing_r;
	const auto have = case_tags(&missing_r);
	for (const auto &t : def_tags())
		EXPECT_TRUE(have.count(t) || k_no_golden.count(t))
			<< t << " (core/compiler/diagnostics.def) has no golden case "
			<< "tests/golden/cases/<area>/err." << t << ".NAME.d";
}

TEST(diagnostics_coverage, ExemptionsAreListedTags)
{
	const auto tags = def_tags();
	for (const auto &[t, why] : k_no_golden)
		EXPECT_TRUE(tags.count(t)) << t << " is exempted (" << why
					   << ") but diagnostics.def no longer lists it";
}

TEST(diagnostics_coverage, EveryCaseNamesAListedTagAndHasItsOutput)
{
	std::set<std::string> missing_r;
	const auto have = case_tags(&missing_r);
	const auto tags = def_tags();
	for (const auto &t : have)
		EXPECT_TRUE(tags.count(t)) << "err." << t << ".*.d names a tag that "
					   << "core/compiler/diagnostics.def does not list";
	for (const auto &f : missing_r)
		ADD_FAILURE() << f << " has no .r file";
}

} // namespace
