// SPDX-License-Identifier: MIT
// DTrace's build flow for a program that calls its probe functions itself
// (dtrace_flow.c: __dtrace_flow___step(...), __dtraceenabled_...()): cc
// -c, dtrace -G -s flow.d over the object, one link; then the program is
// traced by our usdt provider: arguments from registers and the stack, a
// tail call, "__" as "-", the is-enabled function true exactly while the
// probe is enabled, probefunc the caller. A second -G over the same object
// changes nothing; a call of a probe flow.d does not define is refused.
// A program that uses DTRACE_PROBEn of our DTrace-flow <sys/sdt.h>
// (cmd/dtrace/sdt) in C89 is built and traced the same way.
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using dt::test::bpf_cli::bpf;
using dt::test::bpf_cli::dtrace;
namespace fs = std::filesystem;

const char *const k_cc = "/usr/bin/cc";

// A scratch directory with the program built the DTrace way.
struct flow_build {
	fs::path dir;
	std::string obj, prov, app, err;
	bool ok = false;

	explicit flow_build(std::vector<std::string> cc = {k_cc, "-O2"})
	{
		dir = fs::temp_directory_path() / ("dt_usdt_flow_" + std::to_string(getpid()));
		fs::create_directories(dir);
		obj = dir / "dtrace_flow.o";
		prov = dir / "flow.o";
		app = dir / "dtrace_flow";
		cc.insert(cc.end(), {"-c", DT_USDT_FLOW_C, "-o", obj});
		auto c = dt::test::run(cc);
		if (c.status != 0) {
			err = "cc -c: " + c.err;
			return;
		}
		auto g = dtrace({"-G", "-s", DT_USDT_FLOW_D, "-o", prov, obj});
		if (g.status != 0) {
			err = "dtrace -G: " + g.err;
			return;
		}
		auto l = dt::test::run({k_cc, obj, prov, "-o", app});
		if (l.status != 0) {
			err = "cc (link): " + l.err;
			return;
		}
		ok = true;
	}
	~flow_build() { fs::remove_all(dir); }
};

#define REQUIRE_CC()                                                                    \
	do {                                                                            \
		if (!fs::exists(k_cc))                                                  \
			GTEST_SKIP() << "no C compiler (" << k_cc << ") to build with"; \
	} while (0)

TEST(UsdtDtraceFlow, TheProgramRunsUntracedWithItsProbesDisabled)
{
	REQUIRE_CC();
	flow_build b;
	ASSERT_TRUE(b.ok) << b.err;
	auto r = dt::test::run({b.app, "3"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "gated 0\n");
}

TEST(UsdtDtraceFlow, ASecondLinkOfTheSameObjectChangesNothing)
{
	REQUIRE_CC();
	flow_build b;
	ASSERT_TRUE(b.ok) << b.err;
	auto bytes = [](const std::string &p) {
		std::ifstream f(p, std::ios::binary);
		return std::string(std::istreambuf_iterator<char>(f), {});
	};
	std::string before = bytes(b.obj);
	auto g = dtrace({"-G", "-s", DT_USDT_FLOW_D, "-o", b.prov, b.obj});
	ASSERT_EQ(g.status, 0) << g.err;
	EXPECT_EQ(bytes(b.obj), before);
}

TEST(UsdtDtraceFlow, AProbeTheDefinitionLacksIsRefused)
{
	REQUIRE_CC();
	fs::path dir = fs::temp_directory_path() / ("dt_usdt_flow_bad_" + std::to_string(getpid()));
	fs::create_directories(dir);
	std::string c = dir / "bad.c", o = dir / "bad.o", d = dir / "bad.d";
	std::ofstream(c) << "extern void __dtrace_flow___nosuch(void);\n"
			    "void f(void) { __dtrace_flow___nosuch(); }\n";
	std::ofstream(d) << "provider flow { probe step(); };\n";
	auto cc = dt::test::run({k_cc, "-c", c, "-o", o});
	ASSERT_EQ(cc.status, 0) << cc.err;
	auto g = dtrace({"-G", "-s", d, "-o", (dir / "p.o").string(), o});
	auto other = dtrace({"-G", "-s", DT_USDT_FLOW_D, "-o", (dir / "p.o").string(), c});
	fs::remove_all(dir);
	EXPECT_EQ(g.status, 1);
	EXPECT_EQ(g.err, "dtrace: failed to link script " + d.substr(0, d.size() - 2) +
				 ": no such probe flow:::nosuch\n");
	EXPECT_EQ(other.status, 1);
	EXPECT_NE(other.err.find(c + " is not an ELF file"), std::string::npos) << other.err;
}

TEST(UsdtDtraceFlow, ProbesFireWithTheirArgumentsWhereTheProgramCalledThem)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	flow_build b;
	ASSERT_TRUE(b.ok) << b.err;
	auto r = dtrace(bpf(
		{"-q", "-n",
		 "flow$target:::step { printf(\"%s %s %d %s\\n\", probefunc, probename, arg0, "
		 "copyinstr(arg1)); }",
		 "-n",
		 "flow$target:::many { printf(\"%d %d %d %d %d %d %d %d\\n\", arg0, arg1, arg2, "
		 "arg3, arg4, arg5, arg6, arg7); }",
		 "-n", "flow$target:::tail-call { printf(\"%s %d\\n\", probefunc, arg0); }", "-n",
		 "flow$target:::gated { printf(\"gated %d\\n\", arg0); }", "-c", b.app + " 2"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "main step -1 step\n"
			 "1 -2 3 4 5 6 700 -8\n"
			 "gated 250\n"
			 "flow_finish 0\n"
			 "main step 0 step\n"
			 "1 -2 3 4 5 6 701 -8\n"
			 "gated 251\n"
			 "flow_finish 10\n\n");
	EXPECT_NE(r.err.find("gated 2\n"), std::string::npos) << r.err;
}

// -fno-plt: calls through the GOT (call *f@GOTPCREL(%rip)), six bytes.
TEST(UsdtDtraceFlow, CallsThroughTheGotToo)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	flow_build b({k_cc, "-O2", "-fno-plt"});
	ASSERT_TRUE(b.ok) << b.err;
	auto r = dtrace(bpf({"-q", "-n",
			     "flow$target:::step,flow$target:::tail-call "
			     "{ printf(\"%s %d\\n\", probename, arg0); }",
			     "-c", b.app + " 2"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "step -1\ntail-call 0\nstep 0\ntail-call 10\n\n");
}

TEST(UsdtDtraceFlow, TheIsEnabledFunctionFollowsItsProbe)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	flow_build b;
	ASSERT_TRUE(b.ok) << b.err;
	auto r = dtrace(bpf({"-q", "-n", "flow$target:::step { n++; }", "-c", b.app + " 3"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.err.find("gated 0\n"), std::string::npos) << r.err;
}

TEST(UsdtDtraceFlow, DtraceProbeMacrosOfSysSdtH)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	fs::path dir = fs::temp_directory_path() / ("dt_usdt_sdt_h_" + std::to_string(getpid()));
	fs::create_directories(dir);
	std::string c = dir / "sdt.c", o = dir / "sdt.o", d = dir / "p.d", p = dir / "p.o",
		    app = dir / "sdt";
	std::ofstream(c) << "#include <sys/sdt.h>\n"
			    "int main(int argc, char **argv)\n"
			    "{\n"
			    "\tDTRACE_PROBE(sdt_h, begin__here);\n"
			    "\tDTRACE_PROBE(sdt_h, pair, argc, -5);\n"
			    "\tDTRACE_PROBE7(sdt_h, seven, 1, 2, 3, 4, 5, 6, 77);\n"
			    "\treturn 0;\n"
			    "}\n";
	std::ofstream(d) << "provider sdt_h {\n"
			    "\tprobe begin__here();\n"
			    "\tprobe pair(int, int);\n"
			    "\tprobe seven(int, int, int, int, int, int, long);\n"
			    "};\n";
	auto cc = dt::test::run({k_cc, "-std=gnu89", "-I", DT_USDT_SDT_INCLUDE, "-c", c, "-o", o});
	auto g = dtrace({"-G", "-s", d, "-o", p, o});
	auto l = dt::test::run({k_cc, o, p, "-o", app});
	auto r = dtrace(bpf({"-q", "-n",
			     "sdt_h$target::: { printf(\"%s %d %d %d\\n\", probename, arg0, "
			     "arg1, arg6); }",
			     "-c", app}));
	fs::remove_all(dir);
	ASSERT_EQ(cc.status, 0) << cc.err;
	ASSERT_EQ(g.status, 0) << g.err;
	ASSERT_EQ(l.status, 0) << l.err;
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "begin-here 0 0 0\npair 1 -5 0\nseven 1 2 77\n\n");
}

} // namespace
