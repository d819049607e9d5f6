// SPDX-License-Identifier: MIT
// The bpf engine end to end, continued: aggrate apart from switchrate,
// the zonename built-in, and the destructive copyout()/copyoutstr()
// writing into a real process (dt_bpf_copyout_target).
#include "cli_support.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cstring>
#include <regex>
#include <string>
#include <vector>

namespace {

using dt::test::result;
using namespace dt::test::bpf_cli;

// Why a tracing program may not call bpf_probe_write_user here ("" if it
// may): a kernel locked down (integrity) or a caller without
// CAP_SYS_ADMIN has no such helper for it. The probe is a program calling
// it without arguments: the verifier names the helper it will not give
// ("cannot use helper", older kernels "unknown func"), else objects to
// the arguments. (libbpf_probe_bpf_helper() of libbpf 1.1 does not know
// the first wording and says yes.)
std::string write_user_unavailable()
{
	bpf_insn prog[2] = {};
	prog[0].code = BPF_JMP | BPF_CALL;
	prog[0].imm = BPF_FUNC_probe_write_user;
	prog[1].code = BPF_JMP | BPF_EXIT;
	std::vector<char> log(1 << 16, '\0');
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	o.log_level = 1;
	o.log_size = static_cast<__u32>(log.size());
	o.log_buf = log.data();
	int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dt_wu_probe", "GPL", prog, 2, &o);
	if (fd >= 0) {
		close(fd);
		return "";
	}
	log.back() = '\0';
	if (std::strstr(log.data(), "cannot use helper") || std::strstr(log.data(), "unknown func"))
		return "this kernel does not let tracing programs call bpf_probe_write_user "
		       "(kernel lockdown, or no CAP_SYS_ADMIN)";
	return "";
}

#define REQUIRE_WRITE_USER()                                                    \
	do {                                                                    \
		if (std::string why = write_user_unavailable(); !why.empty()) \
			GTEST_SKIP() << why;                                    \
	} while (0)

// illumos reads the aggregation buffers at aggrate (dtrace_aggregate_snap())
// and the principal buffers at switchrate (dtrace_consume()), each on its
// own clock. With switchrate 10hz and aggrate 1h, the four printa()s of
// the ticks consume the snapshot taken at the first drain, after BEGIN:
// the same value every time, however far the count has gone; the maps
// are read again once exit() ran, so END sees every count. Were the maps
// read at every drain, printa() #k would show at least k + 1.
TEST(bpf_cli_misc, aggrate_is_not_switchrate)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-q", "-x", "switchrate=10hz", "-x", "aggrate=1h",
			   "-n",
			   "BEGIN { @ = count(); } "
			   "tick-100ms /++i <= 4/ { @ = count(); printa(\"tick %@d\\n\", @); } "
			   "tick-100ms /i == 10/ { exit(0); } "
			   "END { printa(\"end %@d\\n\", @); }"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::vector<std::string> ticks, ends;
	for (const std::string &l : dt::test::lines(r.out)) {
		if (l.rfind("tick ", 0) == 0)
			ticks.push_back(l);
		else if (l.rfind("end ", 0) == 0)
			ends.push_back(l);
	}
	ASSERT_EQ(ticks.size(), 4U) << r.out;
	for (const std::string &t : ticks)
		EXPECT_EQ(t, ticks.front()) << r.out;
	// The first drain follows BEGIN at once; a tick before it would make
	// the snapshot 2, never more.
	EXPECT_TRUE(ticks.front() == "tick 1" || ticks.front() == "tick 2") << r.out;
	EXPECT_EQ(ends, std::vector<std::string>{"end 5"}) << r.out;

	// aggrate no longer than switchrate: every drain reads the maps, and
	// printa() #k shows BEGIN's count and k ticks'.
	r = dtrace({"-x", "engine=bpf", "-q", "-x", "switchrate=10hz", "-x", "aggrate=1ns", "-n",
		    "BEGIN { @ = count(); } "
		    "tick-100ms /++i <= 4/ { @ = count(); printa(\"tick %@d\\n\", @); } "
		    "tick-100ms /i == 5/ { exit(0); }"});
	ASSERT_EQ(r.status, 0) << r.err;
	long k = 0;
	for (const std::string &l : dt::test::lines(r.out)) {
		if (l.rfind("tick ", 0) == 0) {
			k++;
			EXPECT_GE(std::stol(l.substr(5)), k + 1) << r.out;
		}
	}
	EXPECT_EQ(k, 4) << r.out;
}

TEST(bpf_cli_misc, bad_aggrate_is_refused)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-x", "aggrate=often", "-n", "BEGIN { exit(0); }"});
	EXPECT_NE(r.status, 0);
	EXPECT_EQ(r.err, "dtrace: failed to set -x aggrate: Invalid value for specified option\n");
}

// A kernel bit-field read through BTF: in_execve is set while the
// exec-success tracepoint fires (bprm_execve() clears it afterwards), its
// neighbour sched_reset_on_fork is not.
TEST(bpf_cli_misc, kernel_bit_field_from_btf)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-qn",
			   "proc:::exec-success /pid == $target || ppid == $target/ { printf(\"%s %d %d\\n\", execname, "
			   "curthread->in_execve, curthread->sched_reset_on_fork); exit(0); }",
			   "-c", "/bin/sh -c /bin/true"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "true 1 0\n\n") << r.err;
}

// Aggregation keys are at most 16 KiB on the bpf engine (2 KiB before):
// twelve 1,024-byte strings, then a long, a char and a short that lie
// beyond the BPF offset field's 32 KiB in the engine's per-CPU memory
// (stored through a pointer), as the user engine keys them.
TEST(bpf_cli_misc, aggregation_keys_up_to_sixteen_kib)
{
	REQUIRE_BPF();
	result r = expect_same_as_user(
		{"-x", "strsize=1023", "-qn",
		 "BEGIN { @[execname, \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", "
		 "\"i\", \"j\", \"k\", \"l\", 7, (char)8, (short)9] = count(); "
		 "printa(\"%s %s %s %s %s %s %s %s %s %s %s %s %d %d %d %@d\\n\", @); exit(0); }"});
	EXPECT_EQ(r.out, "dtrace b c d e f g h i j k l 7 8 9 1\n\n") << r.err;
	// Beyond 16 KiB: reported.
	result big = dtrace({"-x", "engine=bpf", "-x", "strsize=1023", "-qn",
			     "BEGIN { @[execname, execname, execname, execname, execname, "
			     "execname, execname, execname, execname, execname, execname, "
			     "execname, execname, execname, execname, execname, 1] = count(); }"});
	EXPECT_EQ(big.status, 1) << big.out;
	EXPECT_NE(big.err.find("bytes, more than 16384"), std::string::npos) << big.err;
}

// zonename: Linux has no zones; every engine says "global", the name of
// illumos' only zone on a system without others.
TEST(bpf_cli_misc, zonename_is_global_as_on_the_user_engine)
{
	REQUIRE_BPF();
	expect_same_as_user({"-qn", "BEGIN { printf(\"[%s]\\n\", zonename); exit(0); }"});
	result r = dtrace({"-x", "engine=bpf", "-qn",
			   "syscall::write:entry /pid == $target/ { @[zonename] = count(); }", "-c",
			   DT_BPF_COPYOUT_TARGET});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  global +[1-9]\d*\n)"))) << r.out;
}

// At a system call probe (the sys_enter and sys_exit raw tracepoints) the
// kernel stack begins at the tracepoint's call site, past the program's own
// frames and the tracepoint's dispatch (bpf_trace_runN, __bpf_trace_<tp>,
// __traceiter_<tp>), as on the kmod engine and as an SDT probe's in illumos:
// stack(1) is that frame, caller the same (a probe in a function),
// stackdepth counts the frames stack() shows, no frame shows twice in a row,
// and a stack(2) key holds the first two.
TEST(bpf_cli_misc, kernel_stack_at_a_tracepoint_begins_at_its_call_site)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-qn",
			   "syscall::getppid:entry,syscall::getppid:return /pid == $target/ {"
			   " printf(\"%s caller %a depth %d\\n\", probename, caller, stackdepth);"
			   " stack(1); stack(); printf(\"end\\n\"); @[stack(2)] = count(); }",
			   "-n", "END { printf(\"key\\n\"); }", "-c",
			   std::string(DT_BPF_WORKLOAD) + " getppid 1"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::vector<std::string> ls = dt::test::lines(r.out);
	int firings = 0;
	for (size_t i = 0; i < ls.size(); i++) {
		std::smatch h;
		if (!std::regex_match(ls[i], h,
				      std::regex(R"((entry|return) caller (\S+) depth (\d+))")))
			continue;
		std::vector<std::string> f; // stack(1)'s frame, then stack()'s
		for (i++; i < ls.size() && ls[i] != "end"; i++) {
			std::string t = std::regex_replace(ls[i], std::regex(R"(^\s+|\s+$)"), "");
			if (!t.empty())
				f.push_back(t);
		}
		firings++;
		SCOPED_TRACE(h[1].str() + "\n" + r.out);
		ASSERT_GE(f.size(), 3u);
		EXPECT_EQ(f[0], h[2].str());
		EXPECT_EQ(f[1], h[2].str());
		EXPECT_EQ(std::to_string(f.size() - 1), h[3].str());
		for (size_t k = 1; k < f.size(); k++) {
			EXPECT_FALSE(std::regex_search(
				f[k],
				std::regex(R"(^bpf`|bpf_trace_run|__bpf_trace_|__traceiter_)")))
				<< f[k];
			if (k + 1 < f.size()) {
				EXPECT_NE(f[k], f[k + 1]);
			}
		}
		std::string key = "\n              " + f[1] + "\n              " + f[2] + "\n";
		EXPECT_NE(r.out.find(key, r.out.find("\nkey\n")), std::string::npos) << key;
	}
	EXPECT_EQ(firings, 2) << r.out;
}

// copyoutstr() into one buffer and copyout() of two bytes into the other,
// at the target's write() entries: the target prints what it then holds.
TEST(bpf_cli_misc, copyout_writes_into_the_process)
{
	REQUIRE_BPF();
	REQUIRE_WRITE_USER();
	result r = dtrace({"-x", "engine=bpf", "-w", "-qn",
			   "syscall::write:entry /pid == $target && (int)arg0 == -1/ "
			   "{ copyoutstr(\"new\", arg1, 16); } "
			   "syscall::write:entry /pid == $target && (int)arg0 == -2/ "
			   "{ this->p = (char *)alloca(2); this->p[0] = 'X'; this->p[1] = 'Y'; "
			   "copyout(this->p, arg1, 2); }",
			   "-c", DT_BPF_COPYOUT_TARGET});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("a=new b=XYtouched\n"), std::string::npos) << r.out << r.err;
	EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;

	// Not writing: the buffers stay as they were.
	r = dtrace({"-x", "engine=bpf", "-w", "-qn",
		    "syscall::write:entry /pid == $target && 0/ { copyoutstr(\"new\", arg1, 16); }",
		    "-c", DT_BPF_COPYOUT_TARGET});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("a=untouched b=untouched\n"), std::string::npos) << r.out;
}

// The program of the next two tests: two writes to addresses the process
// does not map, an ERROR clause, and a clause after them.
const char k_bad_copyouts[] = "BEGIN { copyoutstr(\"x\", 16, 2); } "
			      "BEGIN { this->p = (char *)alloca(4); copyout(this->p, 4096, 4); } "
			      "ERROR { printf(\"fault %d at %x\\n\", arg4, arg5); } "
			      "BEGIN { printf(\"after\\n\"); exit(0); }";

// A write the kernel refuses: DTrace's ERROR (invalid address: the user
// address), the ERROR probe's arguments (fault 1, DTRACEFLT_BADADDR), and
// tracing goes on; the same as on the user engine.
TEST(bpf_cli_misc, copyout_to_a_bad_address_is_an_error)
{
	REQUIRE_BPF();
	REQUIRE_WRITE_USER();
	result r = dtrace({"-x", "engine=bpf", "-w", "-qn", k_bad_copyouts});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.err.find("dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): "
			     "invalid address (0x10) in action #1"),
		  std::string::npos)
		<< r.err;
	EXPECT_NE(r.err.find("dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): "
			     "invalid address (0x1000) in action #2"),
		  std::string::npos)
		<< r.err;
	EXPECT_EQ(r.out.rfind("fault 1 at 10\nfault 1 at 1000\nafter\n", 0), 0U) << r.out;
	expect_same_as_user({"-w", "-qn", k_bad_copyouts});
}

// Without -w, dtrace_go() refuses: so does the bpf engine, whether or not
// the kernel would let it write (it loads nothing of such a program).
TEST(bpf_cli_misc, copyout_without_w_is_refused)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-qn", k_bad_copyouts});
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "dtrace: could not enable tracing: Destructive actions not allowed\n");
	expect_same_as_user({"-qn", k_bad_copyouts});
}

// Where the kernel withholds bpf_probe_write_user (this host: lockdown
// integrity), copyout() with -w fails to enable, saying why.
TEST(bpf_cli_misc, copyout_where_the_kernel_forbids_it_says_why)
{
	REQUIRE_BPF();
	if (write_user_unavailable().empty())
		GTEST_SKIP() << "this kernel lets tracing programs call bpf_probe_write_user";
	result r = dtrace({"-x", "engine=bpf", "-w", "-qn", k_bad_copyouts});
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("dtrace: failed to enable 'BEGIN ': bpf engine: the kernel's "
			     "verifier rejected the clause at line 1 (BEGIN): copyout() and "
			     "copyoutstr() need the kernel's bpf_probe_write_user(), which this "
			     "kernel does not allow"),
		  std::string::npos)
		<< r.err;
}

} // namespace
