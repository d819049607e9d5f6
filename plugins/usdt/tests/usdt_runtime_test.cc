// SPDX-License-Identifier: MIT
// USDT probes firing on the bpf engine, through dtrace(1): a program built
// with a `dtrace -h` header (usdt_target.c) fires shop:::order-placed with
// known arguments of every size and sign; its is-enabled test is true
// exactly while that probe is enabled (the semaphore); a provider named
// without a pid reaches a process already running; -l lists a process's
// USDT probes; Debian's python3 fires python$target:::line for each line
// run; and names that match nothing are DTrace's errors.
#include "child_process.hpp"
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using dt::test::background_dtrace;
using dt::test::child;
using dt::test::bpf_cli::dtrace;

const std::string k_target = DT_USDT_TARGET;

using dt::test::bpf_cli::bpf;

TEST(UsdtRuntime, ArgumentsOfEverySizeAndSign)
{
	REQUIRE_BPF();
	auto r = dtrace(bpf({"-n",
			     "shop$target:::order-placed { printf(\"%d %s %d %d\\n\", arg0, "
			     "copyinstr(arg1), arg2, arg3); }",
			     "-c", k_target + " 4"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "0 apple 0 0\n"
			 "1 pear -1000000000 -1\n"
			 "2 plum -2000000000 -2\n"
			 "3 apple -3000000000 -3\n\n");
	EXPECT_NE(r.err.find("enabled 4 of 4"), std::string::npos) << r.err;
}

TEST(UsdtRuntime, TwelveArgumentsReachArgs10And11)
{
	REQUIRE_BPF();
	// stapsdt's most operands: args[10] and args[11] past arg0..arg9.
	auto r = dtrace(bpf({"-qn",
			     "wide$target:::twelve { printf(\"%d %d %d %d\\n\", args[0], arg9, "
			     "args[10], args[11]); }",
			     "-c", std::string(DT_USDT_WIDE_TARGET) + " 2"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "1 10 11 12\n101 110 111 112\n\n") << r.err;
	// args[] are typed by the operands (8 bytes, signed: int64_t); past
	// the last one, DTrace's D_ARGS_IDX.
	auto types = dtrace(bpf({"-lv", "-n", "wide$target:::twelve", "-c",
				 std::string(DT_USDT_WIDE_TARGET) + " 1"}));
	EXPECT_NE(types.out.find("args[11]: int64_t\n"), std::string::npos) << types.out;
	auto past = dtrace(bpf({"-qn", "wide$target:::twelve { trace(args[12]); }", "-c",
				std::string(DT_USDT_WIDE_TARGET) + " 1"}));
	EXPECT_EQ(past.status, 1);
	EXPECT_NE(past.err.find("index 12 is out of range for wide"), std::string::npos)
		<< past.err;
}

TEST(UsdtRuntime, TheSemaphoreCountsOnlyWhileItsProbeIsEnabled)
{
	REQUIRE_BPF();
	// Another probe of the provider is enabled; order-placed is not.
	auto r = dtrace(bpf(
		{"-n", "shop$target:::closed { printf(\"closed\\n\"); }", "-c", k_target + " 3"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "closed\n\n");
	EXPECT_NE(r.err.find("enabled 0 of 3"), std::string::npos) << r.err;
}

TEST(UsdtRuntime, AProviderWithoutAPidReachesARunningProcess)
{
	REQUIRE_BPF();
	child target({k_target, "5", "wait"});
	ASSERT_GT(target.pid, 0);
	background_dtrace d({"-n", "shop:::order-placed { @ = sum(arg0); }", "-n",
			     "shop:::closed { printa(\"%@d\\n\", @); exit(0); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	target.send("x");
	int status = -1;
	std::string out = d.finish(status);
	EXPECT_EQ(status, 0) << out;
	EXPECT_NE(out.find("\n10\n"), std::string::npos) << out; // 0+1+2+3+4
	EXPECT_EQ(target.wait(), 0);
}

TEST(UsdtRuntime, ListingAProcesssProbes)
{
	child target({k_target, "1", "wait"});
	ASSERT_GT(target.pid, 0);
	std::string pid = std::to_string(target.pid);
	// The target's maps are complete once it waits on its input.
	for (int i = 0; i < 100; i++) {
		std::ifstream st("/proc/" + pid + "/wchan");
		std::string w;
		st >> w;
		if (!w.empty() && w != "0")
			break;
		usleep(10000);
	}
	auto r = dtrace({"-l", "-P", "shop*", "-p", pid});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("shop" + pid), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("order-placed"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find(" main "), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("closed"), std::string::npos) << r.out;
	target.send("x");
	EXPECT_EQ(target.wait(), 0);
}

// A build written for DTrace's flow: cc -c with the -h header, then
// dtrace -G over the objects, then one link of them all; the program it
// makes is traced like any other.
TEST(UsdtRuntime, ADtraceGBuildLinksAndIsTraced)
{
	REQUIRE_BPF();
	if (!std::filesystem::exists("/usr/bin/cc"))
		GTEST_SKIP() << "no C compiler (/usr/bin/cc) to build with";
	std::filesystem::path dir =
		std::filesystem::temp_directory_path() / ("dt_usdt_G_" + std::to_string(getpid()));
	std::filesystem::create_directories(dir);
	auto sh = [](const std::vector<std::string> &argv) { return dt::test::run(argv); };
	std::string hdr = dir / "usdt_shop.h", obj = dir / "app.o", prov = dir / "shop.o",
		    app = dir / "app";
	auto h = dtrace({"-h", "-s", DT_USDT_SHOP_D, "-o", hdr});
	ASSERT_EQ(h.status, 0) << h.err;
	auto c = sh({"/usr/bin/cc", "-O2", "-c", DT_USDT_TARGET_C, "-I", dir.string(), "-o", obj});
	ASSERT_EQ(c.status, 0) << c.err;
	auto g = dtrace({"-G", "-s", DT_USDT_SHOP_D, "-o", prov, obj});
	ASSERT_EQ(g.status, 0) << g.err;
	auto l = sh({"/usr/bin/cc", obj, prov, "-o", app});
	ASSERT_EQ(l.status, 0) << l.err;
	auto r = dtrace(bpf({"-n",
			     "shop$target:::order-placed { printf(\"%d %s\\n\", arg0, "
			     "copyinstr(arg1)); }",
			     "-c", app + " 2"}));
	std::filesystem::remove_all(dir);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "0 apple\n1 pear\n\n");
	EXPECT_NE(r.err.find("enabled 2 of 2"), std::string::npos) << r.err;
}

TEST(UsdtRuntime, NamesThatMatchNothing)
{
	REQUIRE_BPF();
	auto r = dtrace(bpf({"-n", "shop$target:::no-such-probe", "-c", k_target + " 1"}));
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("does not match any probes"), std::string::npos) << r.err;
	// An object without notes.
	r = dtrace(bpf({"-n", "shop$target:::", "-c", "/bin/true"}));
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("does not match any probes"), std::string::npos) << r.err;
}

TEST(UsdtRuntime, PythonLinesOfAFunction)
{
	REQUIRE_BPF();
	// Debian's python3 carries stapsdt notes (python:::function__entry,
	// line ...), guarded by semaphores. (Its function-entry fires only
	// for frames its specializing interpreter has not quickened: not a
	// count a test can know; line fires for every line.)
	const std::string py = "/usr/bin/python3";
	if (!std::filesystem::exists(py))
		GTEST_SKIP() << py << " is not installed";
	std::string script = std::filesystem::temp_directory_path() /
			     ("dt_usdt_" + std::to_string(getpid()) + ".py");
	{
		std::ofstream f(script);
		f << "def shop_visit(i):\n    return i\n\nfor i in range(7):\n    shop_visit(i)\n";
	}
	auto r = dtrace(bpf({"-n",
			     "python$target:::line /copyinstr(arg1) == \"shop_visit\"/ "
			     "{ @[arg2] = count(); }",
			     "-n", "END { printa(\"%d %@d\\n\", @); }", "-c", py + " " + script}));
	std::filesystem::remove(script);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "2 7\n\n"); // line 2, `return i`, seven times
}

} // namespace
