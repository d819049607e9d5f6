// SPDX-License-Identifier: MIT
// The built dtrace(1) with its D library (build/lib/dtrace): scripts
// using curpsinfo and the tcp provider's translated args[] compile (-e),
// -S shows the translated loads, and on the user engine (BEGIN runs in
// the dtrace process, where curthread is 0: no kernel task to read)
// curpsinfo->pr_pid is an ERROR-probe fault, never a crash. Skips, saying
// why, without kernel BTF.
#include "../support/run_dtrace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

namespace dt::test {
namespace {

#define NEED_BTF()                                                                          \
	do {                                                                                \
		if (!std::filesystem::exists("/sys/kernel/btf/vmlinux"))                    \
			GTEST_SKIP() << "/sys/kernel/btf/vmlinux is absent: no kernel BTF"; \
	} while (0)

TEST(kernel_types_cli, curpsinfo_compiles)
{
	NEED_BTF();
	result r = dtrace({"-e", "-n",
			   "BEGIN { printf(\"%d %d %s %c\", curpsinfo->pr_pid, "
			   "curpsinfo->pr_ppid, curpsinfo->pr_fname, curlwpsinfo->pr_sname) }"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
}

TEST(kernel_types_cli, tcp_args_are_translated)
{
	NEED_BTF();
	result r = dtrace(
		{"-e", "-n",
		 "tcp:::send, tcp:::receive { printf(\"%s:%d -> %s:%d %x %d\\n\", "
		 "args[2]->ip_saddr, args[4]->tcp_sport, args[2]->ip_daddr, "
		 "args[4]->tcp_dport, args[4]->tcp_flags, args[3]->tcps_state); "
		 "trace(args[1]->cs_cid); trace(args[0]->pkt_addr); "
		 "trace(args[3]->tcps_raddr) } "
		 "tcp:::state-change /args[5]->tcps_state == TCP_STATE_SYN_SENT/ "
		 "{ trace(args[3]->tcps_lport) }"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
}

TEST(kernel_types_cli, dash_S_shows_the_translated_loads)
{
	NEED_BTF();
	// tcps_lport: ntohs() of a 16-bit load from args[3].
	result r = dtrace({"-S", "-e", "-n", "tcp:::send { trace(args[3]->tcps_lport) }"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::string all = r.out + r.err;
	EXPECT_NE(all.find("ldga"), std::string::npos) << all;
	EXPECT_NE(all.find("lduh"), std::string::npos) << all;
	EXPECT_NE(all.find("! ntohs"), std::string::npos) << all;
}

TEST(kernel_types_cli, curpsinfo_in_begin_faults_on_the_user_engine)
{
	NEED_BTF();
	// Asked for the user engine, the first BEGIN clause faults (curthread
	// is 0 there: the load of tgid is at a small, invalid address); the
	// second runs.
	result r = dtrace({"-q", "-x", "engine=user", "-n",
			   "BEGIN { trace(curpsinfo->pr_pid) } BEGIN { exit(0) }"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.err.find("dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): "
			     "invalid address (0x"),
		  std::string::npos)
		<< r.err;
	EXPECT_NE(r.err.find(") in action #1 at DIF offset "), std::string::npos) << r.err;
}

// A program that reads kernel memory goes to a kernel engine even when its
// probes are BEGIN and END (DTRACE_DEBUG=1 says why); without one (not root)
// the user engine runs it and the reads fault as above.
TEST(kernel_types_cli, kernel_reads_in_begin_choose_a_kernel_engine)
{
	NEED_BTF();
	const std::map<std::string, std::string> debug = {{"DTRACE_DEBUG", "1"}};
	result r = dtrace({"-q", "-n", "BEGIN { trace(curpsinfo->pr_pid > 0); exit(0) }"}, debug);
	EXPECT_EQ(r.status, 0) << r.err;
	if (geteuid() == 0) {
		EXPECT_NE(r.err.find("the program reads kernel memory"), std::string::npos) << r.err;
		EXPECT_EQ(r.out, "1\n");
	}
	r = dtrace({"-q", "-n", "BEGIN { trace(timestamp > 0); exit(0) }"}, debug);
	EXPECT_NE(r.err.find("engine user"), std::string::npos) << r.err;
}

// io.d's fds[]: the file behind a descriptor of the current process (for
// BEGIN, dtrace's own: its stdin is /dev/null here), "<none>" and zeroes
// for a descriptor that is not open. Read by a kernel engine (root).
TEST(kernel_types_cli, fds_names_the_file_behind_a_descriptor)
{
	NEED_BTF();
	if (geteuid() != 0)
		GTEST_SKIP() << "fds[] is read by a kernel engine: needs root";
	result r = dtrace({"-q", "-n",
			   "BEGIN { printf(\"%s|%s|%d|%d\", fds[0].fi_name, fds[123456].fi_name, "
			   "fds[-1].fi_oflags, fds[0].fi_offset); exit(0) }"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "null|<none>|0|0\n") << r.err;
	// fi_pathname is d_path() of the file: it compiles (the bpf engine's
	// walk is checked against readlink() in runtime_dpath_test.cc).
	r = dtrace({"-e", "-n", "BEGIN { trace(fds[0].fi_pathname) }"});
	EXPECT_EQ(r.status, 0) << r.err;
}

TEST(kernel_types_cli, without_btf_the_library_is_skipped)
{
	result r = dtrace({"-e", "-n", "BEGIN { trace(pid) }"},
			  {{"DTRACE_BTF_PATH", "/nonexistent/vmlinux"}});
	EXPECT_EQ(r.status, 0) << r.err;
	r = dtrace({"-e", "-n", "BEGIN { trace(curpsinfo->pr_pid) }"},
		   {{"DTRACE_BTF_PATH", "/nonexistent/vmlinux"}});
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "dtrace: invalid probe specifier BEGIN { trace(curpsinfo->pr_pid) }: "
			 "in action list: failed to resolve curpsinfo: Unknown variable name\n");
}

} // namespace
} // namespace dt::test
