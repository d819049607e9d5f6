// SPDX-License-Identifier: MIT
// The pid provider through dtrace(1) against a live target process
// (dt_pid_target): the acceptance listing, the classic module
// aliases, instruction offsets checked against objdump, the whole-process
// listing, and processes that do not exist.
#include "run_dtrace.hpp"
#include "target_process.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

namespace {

using dt::test::dtrace;
using dt::test::pid::objdump;
using dt::test::pid::row;
using dt::test::pid::rows;
using dt::test::pid::target_path;
using dt::test::pid::target_process;

const std::vector<std::string> k_functions = {"dt_pid_target_add", "dt_pid_target_sum",
					      "dt_pid_target_classify"};

std::string target_base()
{
	return std::filesystem::path(target_path()).filename().string();
}

std::string prov(const target_process &t)
{
	return "pid" + std::to_string(t.pid());
}

#define START_TARGET(t)   \
	target_process t; \
	ASSERT_TRUE(t.ready()) << "target did not start: " << t.output()

TEST(PidCli, MallocEntryIsExactlyLibcMalloc)
{
	START_TARGET(t);
	auto r = dtrace({"-l", "-p", std::to_string(t.pid()), "-n", "pid$target::malloc:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto v = rows(r.out);
	ASSERT_EQ(v.size(), 1u) << r.out;
	EXPECT_EQ(v[0].provider, prov(t));
	EXPECT_EQ(v[0].mod, "libc.so.6");
	EXPECT_EQ(v[0].func, "malloc");
	EXPECT_EQ(v[0].name, "entry");
}

// -l with -c: the command is created (held at its entry point) so that
// $target names it, its probes are listed, and it is killed afterwards.
TEST(PidCli, ListingACreatedCommand)
{
	auto r = dtrace({"-l", "-c", target_path(), "-n", "pid$target::dt_pid_target_add:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto v = rows(r.out);
	ASSERT_EQ(v.size(), 1u) << r.out;
	ASSERT_EQ(v[0].provider.rfind("pid", 0), 0u) << r.out;
	long pid = std::stol(v[0].provider.substr(3));
	EXPECT_GT(pid, 0);
	EXPECT_EQ(v[0].mod, target_base());
	EXPECT_EQ(v[0].func, "dt_pid_target_add");
	EXPECT_FALSE(std::filesystem::exists("/proc/" + std::to_string(pid)))
		<< "the created command outlived the listing";
	r = dtrace({"-l", "-c", "/nonexistent/cmd", "-n", "pid$target:::entry"});
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err,
		  "dtrace: failed to execute /nonexistent/cmd: cannot find executable file\n");
}

TEST(PidCli, LibcAliasIsReportedAsWritten)
{
	START_TARGET(t);
	for (const char *mod : {"libc", "libc.so"}) {
		auto r = dtrace({"-l", "-p", std::to_string(t.pid()), "-n",
				 std::string("pid$target:") + mod + ":malloc:entry"});
		ASSERT_EQ(r.status, 0) << mod << ": " << r.err;
		auto v = rows(r.out);
		ASSERT_EQ(v.size(), 1u) << r.out;
		EXPECT_EQ(v[0].mod, mod);
		EXPECT_EQ(v[0].func, "malloc");
	}
	// A glob matches the object's own name only.
	auto r = dtrace(
		{"-l", "-p", std::to_string(t.pid()), "-n", "pid$target:libc*:malloc:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto v = rows(r.out);
	ASSERT_EQ(v.size(), 1u) << r.out;
	EXPECT_EQ(v[0].mod, "libc.so.6");
}

TEST(PidCli, AoutIsTheExecutable)
{
	START_TARGET(t);
	auto r = dtrace({"-l", "-p", std::to_string(t.pid()), "-n",
			 "pid$target:a.out:dt_pid_target_add:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto v = rows(r.out);
	ASSERT_EQ(v.size(), 1u) << r.out;
	EXPECT_EQ(v[0].provider, prov(t));
	EXPECT_EQ(v[0].mod, "a.out");
	EXPECT_EQ(v[0].func, "dt_pid_target_add");
	// malloc is libc's, not the executable's: a function named in a
	// module named must be there (illumos D_PROC_FUNC).
	r = dtrace({"-l", "-p", std::to_string(t.pid()), "-n", "pid$target:a.out:malloc:entry"});
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(rows(r.out).size(), 0u) << r.out;
	EXPECT_NE(r.err.find("failed to lookup 'malloc' in module 'a.out'"), std::string::npos)
		<< r.err;
}

TEST(PidCli, LiteralProviderNeedsNoGrab)
{
	START_TARGET(t);
	auto r = dtrace({"-l", "-n", prov(t) + "::dt_pid_target_add:return"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto v = rows(r.out);
	ASSERT_EQ(v.size(), 1u) << r.out;
	EXPECT_EQ(v[0].provider, prov(t));
	EXPECT_EQ(v[0].mod, target_base());
	EXPECT_EQ(v[0].func, "dt_pid_target_add");
	EXPECT_EQ(v[0].name, "return");
}

TEST(PidCli, ProviderGlobCoversOnlyGrabbedProcesses)
{
	START_TARGET(a);
	START_TARGET(b);
	auto r = dtrace({"-l", "-p", std::to_string(a.pid()), "-p", std::to_string(b.pid()), "-n",
			 "pid*::dt_pid_target_add:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::set<std::string> provs;
	for (const auto &x : rows(r.out))
		provs.insert(x.provider);
	EXPECT_EQ(provs, (std::set<std::string>{prov(a), prov(b)})) << r.out;

	r = dtrace({"-l", "-n", "pid*::dt_pid_target_add:entry"});
	EXPECT_EQ(rows(r.out).size(), 0u) << r.out;
	EXPECT_NE(r.err.find("failed to match pid*::dt_pid_target_add:entry"), std::string::npos)
		<< r.err;
}

// The offsets the plugin reports are exactly the instruction starts
// objdump finds in the function.
TEST(PidCli, OffsetsAreObjdumpsInstructionStarts)
{
	START_TARGET(t);
	for (const auto &fn : k_functions) {
		auto od = objdump(target_path(), fn);
		ASSERT_GT(od.insns.size(), 1u) << fn << ": objdump found no code";
		std::vector<std::string> want = {"entry", "return"};
		for (const auto &[off, bytes] : od.insns) {
			char buf[24];
			std::snprintf(buf, sizeof(buf), "%llx",
				      static_cast<unsigned long long>(off));
			want.push_back(buf);
		}
		auto r = dtrace(
			{"-l", "-p", std::to_string(t.pid()), "-n", "pid$target::" + fn + ":"});
		ASSERT_EQ(r.status, 0) << r.err;
		std::vector<std::string> got;
		for (const auto &x : rows(r.out)) {
			EXPECT_EQ(x.mod, target_base());
			EXPECT_EQ(x.func, fn);
			got.push_back(x.name);
		}
		EXPECT_EQ(got, want) << fn << "\n" << r.out;

		// A hex name selects one offset; "0" always exists.
		r = dtrace({"-l", "-p", std::to_string(t.pid()), "-n", "pid$target::" + fn + ":0"});
		ASSERT_EQ(r.status, 0) << r.err;
		ASSERT_EQ(rows(r.out).size(), 1u) << r.out;
		EXPECT_EQ(rows(r.out)[0].name, "0");
	}
}

// Descriptions the pid provider refuses are compile errors with illumos'
// tags and words (dt_pid.c), not "does not match any probes".
TEST(PidCli, RefusedDescriptionsAreDtraceDiagnostics)
{
	START_TARGET(t);
	auto refused = [&](const std::string &desc) {
		auto r = dtrace(
			{"-e", "-x", "errtags", "-p", std::to_string(t.pid()), "-n", desc + " {}"});
		EXPECT_EQ(r.status, 1) << desc << ": " << r.err;
		return r.err;
	};
	const std::string fn = k_functions[0];
	EXPECT_NE(refused("pid$target:a.out:no_such_function:entry")
			  .find("[D_PROC_FUNC] failed to lookup 'no_such_function' in module "
				"'a.out'"),
		  std::string::npos);
	EXPECT_NE(refused("pid$target:a.out:" + fn + ":beginning")
			  .find("[D_PROC_NAME] 'beginning' is an invalid probe name"),
		  std::string::npos);
	EXPECT_NE(refused("pid$target::" + fn + ":100000")
			  .find("[D_PROC_OFF] offset 0x100000 outside of function '" + fn + "'"),
		  std::string::npos);
	EXPECT_NE(refused("pid$target:libc:-:800")
			  .find("[D_PROC_LIB] only the a.out module is valid with the '-' "
				"function"),
		  std::string::npos);
	EXPECT_NE(refused("pid$target:a.out:-:*")
			  .find("[D_PROC_NAME] only individual addresses may be specified"),
		  std::string::npos);
	EXPECT_NE(refused("pid0:::entry")
			  .find("[D_PROC_BADPID] 'pid0' does not contain a "
				"valid pid"),
		  std::string::npos);

	// An offset inside an instruction: one past the start of the first
	// instruction longer than a byte, as objdump decodes it.
	auto od = objdump(target_path(), fn);
	ASSERT_GT(od.insns.size(), 1u);
	uint64_t mid = 0;
	for (size_t i = 0; i + 1 < od.insns.size() && mid == 0; i++)
		if (od.insns[i + 1].first - od.insns[i].first > 1)
			mid = od.insns[i].first + 1;
	ASSERT_NE(mid, 0u) << fn << " has only one-byte instructions";
	char hex[24];
	std::snprintf(hex, sizeof(hex), "%llx", static_cast<unsigned long long>(mid));
	EXPECT_NE(refused("pid$target::" + fn + ":" + hex)
			  .find(std::string("[D_PROC_ALIGN] offset 0x") + hex +
				" is not aligned on an instruction"),
		  std::string::npos);

	// A module glob looks for the function quietly: no match, no refusal.
	auto r = dtrace({"-e", "-x", "errtags", "-p", std::to_string(t.pid()), "-n",
			 "pid$target:lib*:no_such_function:entry {}"});
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("[D_PDESC_ZERO]"), std::string::npos) << r.err;
}

// A module named alone is every instruction of it, as on illumos
// (pid123:a.out::), where the whole process stays entry and return.
TEST(PidCli, NamedModuleHasItsInstructionProbes)
{
	START_TARGET(t);
	auto r = dtrace({"-l", "-p", std::to_string(t.pid()), "-n", "pid$target:a.out::"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::set<std::string> names;
	for (const auto &x : rows(r.out))
		if (x.func == k_functions[0])
			names.insert(x.name);
	EXPECT_TRUE(names.count("entry") && names.count("return") && names.count("0")) << r.out;
	EXPECT_EQ(names.size(), objdump(target_path(), k_functions[0]).insns.size() + 2);
}

TEST(PidCli, WholeProcessListsEntryAndReturnOnly)
{
	START_TARGET(t);
	auto r = dtrace({"-l", "-p", std::to_string(t.pid())});
	ASSERT_EQ(r.status, 0) << r.err;
	std::set<std::tuple<std::string, std::string, std::string>> pid_probes;
	std::set<std::string> mods;
	for (const auto &x : rows(r.out)) {
		if (x.provider != prov(t))
			continue;
		EXPECT_TRUE(x.name == "entry" || x.name == "return")
			<< x.mod << ":" << x.func << ":" << x.name;
		pid_probes.emplace(x.mod, x.func, x.name);
		mods.insert(x.mod);
	}
	for (const auto &fn : k_functions)
		for (const char *n : {"entry", "return"})
			EXPECT_TRUE(pid_probes.count({target_base(), fn, n})) << fn << ":" << n;
	EXPECT_TRUE(pid_probes.count({"libc.so.6", "malloc", "entry"}));
	// Executable, libc and the dynamic linker; never [vdso].
	EXPECT_TRUE(mods.count("libc.so.6"));
	EXPECT_TRUE(mods.count("ld-linux-x86-64.so.2"));
	EXPECT_FALSE(mods.count("[vdso]"));
}

TEST(PidCli, VerboseListingHasPidAttributesAndNoArgs)
{
	START_TARGET(t);
	auto r = dtrace({"-lv", "-p", std::to_string(t.pid()), "-n",
			 "pid$target::dt_pid_target_add:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("Argument Types\n\t\tNone"), std::string::npos) << r.out;
	// Least stable of Evolving/ISA provider and name, Private/Unknown
	// module and function.
	EXPECT_NE(r.out.find("Probe Description Attributes\n\t\tIdentifier Names: Private\n"
			     "\t\tData Semantics:   Private\n\t\tDependency Class: Unknown"),
		  std::string::npos)
		<< r.out;
}

TEST(PidCli, MissingProcessWithoutGrabWarnsAndMatchesNothing)
{
	auto r = dtrace({"-l", "-n", "pid999999999:::"});
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(rows(r.out).size(), 0u) << r.out;
	EXPECT_EQ(r.err, "dtrace: failed to grab pid 999999999: No such process\n"
			 "dtrace: failed to match pid999999999:::: No probe matches description\n");
}

TEST(PidCli, MissingProcessWithGrabFailsToGrab)
{
	auto r = dtrace({"-l", "-p", "999999999", "-n", "pid$target:::entry"});
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("dtrace: failed to grab pid 999999999: No such process"),
		  std::string::npos)
		<< r.err;
}

// A process in its own mount namespace (as in a container) runs a binary
// that does not exist at that path outside: the plugin must read it
// through /proc/PID/root.
TEST(PidCli, ReadsObjectsThroughTheProcessRoot)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root for a mount namespace";
	char dir_tmpl[] = "/tmp/dt-pid-ns-XXXXXX";
	ASSERT_NE(mkdtemp(dir_tmpl), nullptr);
	std::string dir = dir_tmpl;
	struct remove_dir {
		std::string d;
		~remove_dir() { rmdir(d.c_str()); }
	} cleanup{dir};
	std::string script = "mount -t tmpfs none " + dir + " && cp " + target_path() + " " + dir +
			     "/nsbin && exec " + dir + "/nsbin";
	{
		target_process t(
			{"unshare", "--mount", "--propagation", "private", "sh", "-c", script});
		if (!t.ready())
			GTEST_SKIP() << "cannot create a mount namespace here: " << t.output();
		ASSERT_FALSE(std::filesystem::exists(dir + "/nsbin"));
		auto r = dtrace({"-l", "-n", prov(t) + ":a.out:dt_pid_target_sum:entry"});
		EXPECT_EQ(r.status, 0) << r.err;
		auto v = rows(r.out);
		ASSERT_EQ(v.size(), 1u) << r.out << r.err;
		EXPECT_EQ(v[0].mod, "a.out");
		r = dtrace({"-l", "-n", prov(t) + "::dt_pid_target_sum:entry"});
		ASSERT_EQ(rows(r.out).size(), 1u) << r.out << r.err;
		EXPECT_EQ(rows(r.out)[0].mod, "nsbin");
	}
}

} // namespace
