// SPDX-License-Identifier: MIT
//
// translate_ctx_test.cc - the prologue's context kinds on real events:
// sys_enter (arguments from pt_regs, EPID from the syscall number's
// table), sys_exit (return value, errno), and that a perf_event program
// loads. The programs are attached to the raw tracepoints and this test
// makes the system calls. Also: the early filter (the other system calls
// return at once) and tp_record (a tracepoint's record: the arguments at
// its offsets, errno from the return value).
#include "attach.hpp"
#include "translate_support.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>

namespace {

using namespace dt;
using namespace dt::test::bpft;

#define SKIP_WITHOUT_BPF()                                             \
	do {                                                           \
		std::string why = bpf_unusable();                      \
		if (!why.empty())                                      \
			GTEST_SKIP() << "needs bpf() (root): " << why; \
	} while (0)

template <typename T>
T at(const std::vector<uint8_t> &b, size_t off)
{
	T v{};
	std::memcpy(&v, b.data() + off, sizeof(T));
	return v;
}

// /pid == <this process>/ { trace(arg0); trace(arg1); trace(errno); }
program traced_args()
{
	program p;
	clause c;
	c.line = 1;
	c.predicate = make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_PID, 1), DIF_INSTR_SETX(0, 2),
				 DIF_INSTR_CMP(DIF_OP_CMP, 1, 2), DIF_INSTR_BRANCH(DIF_OP_BNE, 6),
				 DIF_INSTR_SETX(1, 3), DIF_INSTR_RET(3), DIF_INSTR_RET(0)},
				{static_cast<uint64_t>(getpid()), 1});
	const uint32_t vars[] = {DIF_VAR_ARG0, DIF_VAR_ARG1, DIF_VAR_ERRNO};
	for (uint32_t k = 0; k < 3; k++) {
		action a;
		a.kind = DTRACEACT_DIFEXPR;
		a.args.push_back(make_record(
			make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, vars[k], 1), DIF_INSTR_RET(1)}),
			16 + 8 * k, 8));
		c.actions.push_back(a);
	}
	c.size = 40;
	p.clauses.push_back(c);
	return p;
}

std::vector<std::vector<uint8_t>> trace_syscall(ctx_kind kind, const char *tp, long nr, long a0,
						long a1, std::string &error,
						std::vector<uint32_t> early = {})
{
	harness h;
	h.prog = traced_args();
	if (!h.prepare()) {
		error = h.error;
		return {};
	}
	int table = create_epid_table(h.maps, 1024);
	set_epid(table, static_cast<uint32_t>(nr), 1);
	probe_spec s;
	s.ctx = kind;
	s.when = gate::probe;
	s.raw_nargs = 2;
	s.ecbs = {{0, 0, table, 1024}};
	s.early_filters = std::move(early);
	if (!h.finish(s)) {
		error = h.error + "\n" + h.log_tail();
		return {};
	}
	h.set_activity(DT_BPF_ACTIVE);
	int link = bpf_raw_tracepoint_open(tp, h.prog_fd);
	if (link < 0) {
		error = std::string("attach: ") + std::strerror(errno);
		return {};
	}
	syscall(nr, a0, a1);
	syscall(nr, a0, a1);
	close(link);
	auto s2 = h.samples();
	return s2;
}

TEST(bpf_translate, sys_enter_arguments_and_epid_table)
{
	SKIP_WITHOUT_BPF();
	std::string err;
	auto s = trace_syscall(ctx_kind::sys_enter, "sys_enter", SYS_getpgid, 424242, 7, err);
	ASSERT_TRUE(err.empty()) << err;
	ASSERT_EQ(s.size(), 2u);
	for (auto &f : s) {
		EXPECT_EQ(at<uint32_t>(f, 8), 1u) << "EPID from the table";
		EXPECT_EQ(at<uint64_t>(f, 8 + 16), 424242u);
		EXPECT_EQ(at<uint64_t>(f, 8 + 24), 7u);
		EXPECT_EQ(at<uint64_t>(f, 8 + 32), 0u);
	}
}

TEST(bpf_translate, sys_exit_return_value_and_errno)
{
	SKIP_WITHOUT_BPF();
	std::string err;
	// getpgid(no such process): -ESRCH
	auto s = trace_syscall(ctx_kind::sys_exit, "sys_exit", SYS_getpgid, 999999999, 0, err);
	ASSERT_TRUE(err.empty()) << err;
	ASSERT_EQ(s.size(), 2u);
	for (auto &f : s) {
		EXPECT_EQ(at<int64_t>(f, 8 + 16), -ESRCH);
		EXPECT_EQ(at<int64_t>(f, 8 + 24), -ESRCH);
		EXPECT_EQ(at<uint64_t>(f, 8 + 32), static_cast<uint64_t>(ESRCH));
	}
}

TEST(bpf_translate, early_filter_lets_only_its_system_calls_in)
{
	SKIP_WITHOUT_BPF();
	for (ctx_kind k : {ctx_kind::sys_enter, ctx_kind::sys_exit}) {
		const char *tp = k == ctx_kind::sys_enter ? "sys_enter" : "sys_exit";
		std::string err;
		auto in = trace_syscall(
			k, tp, SYS_getpgid, 424242, 7, err,
			{static_cast<uint32_t>(SYS_getppid), static_cast<uint32_t>(SYS_getpgid)});
		ASSERT_TRUE(err.empty()) << err;
		EXPECT_EQ(in.size(), 2u) << tp << ": getpgid is one of the numbers";
		auto out = trace_syscall(k, tp, SYS_getpgid, 424242, 7, err,
					 {static_cast<uint32_t>(SYS_getppid)});
		ASSERT_TRUE(err.empty()) << err;
		EXPECT_EQ(out.size(), 0u) << tp << ": getpgid returns at the filter";
	}
}

// A tracepoint program on syscalls:sys_{enter,exit}_getpgid (one fixed
// EPID, no filter): getpgid's one argument at offset 16 of the entry
// record, the return value at 16 of the exit record.
std::vector<std::vector<uint8_t>> trace_tracepoint(bool entry, long a0, std::string &error)
{
	harness h;
	h.prog = traced_args();
	if (!h.prepare()) {
		error = h.error;
		return {};
	}
	probe_spec s;
	s.ctx = ctx_kind::tp_record;
	s.when = gate::probe;
	s.raw_nargs = 24;
	std::fill(std::begin(s.argmap), std::end(s.argmap), -1);
	s.argmap[0] = 16;
	if (!entry)
		s.argmap[1] = 16;
	s.errno_arg0 = !entry;
	s.ecbs = {{0, 1, -1, 0}};
	if (!h.finish(s, BPF_PROG_TYPE_TRACEPOINT)) {
		error = h.error + "\n" + h.log_tail();
		return {};
	}
	h.set_activity(DT_BPF_ACTIVE);
	attach_point p;
	p.kind = DT_BPF_ATTACH_TRACEPOINT;
	p.target = entry ? "syscalls:sys_enter_getpgid" : "syscalls:sys_exit_getpgid";
	p.ctx = DT_BPF_CTX_TP_RECORD;
	try {
		auto links = attach(p, h.prog_fd, "syscall::getpgid");
		syscall(SYS_getpgid, a0);
		syscall(SYS_getpgid, a0);
	} catch (const std::exception &e) {
		error = std::string("attach: ") + e.what();
		return {};
	}
	return h.samples();
}

TEST(bpf_translate, tracepoint_record_arguments_and_errno)
{
	SKIP_WITHOUT_BPF();
	std::string err;
	auto in = trace_tracepoint(true, 424242, err);
	ASSERT_TRUE(err.empty()) << err;
	ASSERT_EQ(in.size(), 2u);
	for (auto &f : in) {
		EXPECT_EQ(at<uint32_t>(f, 8), 1u);
		EXPECT_EQ(at<uint64_t>(f, 8 + 16), 424242u);
		EXPECT_EQ(at<uint64_t>(f, 8 + 24), 0u) << "getpgid has one argument";
		EXPECT_EQ(at<uint64_t>(f, 8 + 32), 0u);
	}
	auto out = trace_tracepoint(false, 999999999, err);
	ASSERT_TRUE(err.empty()) << err;
	ASSERT_EQ(out.size(), 2u);
	for (auto &f : out) {
		EXPECT_EQ(at<int64_t>(f, 8 + 16), -ESRCH);
		EXPECT_EQ(at<int64_t>(f, 8 + 24), -ESRCH);
		EXPECT_EQ(at<uint64_t>(f, 8 + 32), static_cast<uint64_t>(ESRCH));
	}
}

TEST(bpf_translate, perf_event_program_loads)
{
	SKIP_WITHOUT_BPF();
	harness h;
	h.prog = traced_args();
	ASSERT_TRUE(h.prepare()) << h.error;
	probe_spec s;
	s.ctx = ctx_kind::perf_event;
	s.when = gate::probe;
	s.ecbs = {{0, 1, -1, 0}};
	ASSERT_TRUE(h.finish(s, BPF_PROG_TYPE_PERF_EVENT)) << h.error << "\n" << h.log_tail();
}

} // namespace

namespace {

// syscall::getppid:entry { @ = count(); } attached to sys_enter: every call
// counted; the per-call cost is printed (reported, not asserted).
TEST(bpf_translate, count_getppid_counts_every_call)
{
	SKIP_WITHOUT_BPF();
	harness h;
	aggregation ag;
	ag.id = 1;
	ag.func = DTRACEAGG_COUNT;
	h.prog.aggregations.push_back(ag);
	clause c;
	c.line = 1;
	action a;
	a.kind = DTRACEAGG_COUNT;
	a.aggid = 1;
	c.actions.push_back(a);
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.prepare()) << h.error;
	int table = create_epid_table(h.maps, 1024);
	set_epid(table, SYS_getppid, 1);
	probe_spec s;
	s.ctx = ctx_kind::sys_enter;
	s.raw_nargs = 2;
	s.ecbs = {{0, 0, table, 1024}};
	ASSERT_TRUE(h.finish(s)) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_ACTIVE);
	const int n = 200000;
	auto loop = [&] {
		auto t0 = std::chrono::steady_clock::now();
		for (int i = 0; i < n; i++)
			syscall(SYS_getppid);
		return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() -
								t0)
			       .count() /
		       n;
	};
	// The floor: an empty program on the same raw tracepoint.
	bpf_insn empty[] = {{BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0},
			    {BPF_JMP | BPF_EXIT, 0, 0, 0, 0}};
	int efd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dt_empty", "GPL", empty, 2, nullptr);
	ASSERT_GE(efd, 0);
	double base = 1e9, floor = 1e9, traced = 1e9;
	for (int round = 0; round < 3; round++) {
		base = std::min(base, loop());
		int elink = bpf_raw_tracepoint_open("sys_enter", efd);
		ASSERT_GE(elink, 0) << std::strerror(errno);
		floor = std::min(floor, loop());
		close(elink);
		int link = bpf_raw_tracepoint_open("sys_enter", h.prog_fd);
		ASSERT_GE(link, 0) << std::strerror(errno);
		traced = std::min(traced, loop());
		close(link);
	}
	close(efd);
	auto got = h.agg(1);
	ASSERT_EQ(got.size(), 1u);
	EXPECT_GE(summed(got.begin()->second)[0], 3 * n) << "every getppid() counted";
	std::cout << "count() on sys_enter: " << h.tr.insns.size() << " instructions; getppid "
		  << base << " ns untraced, " << floor << " ns with an empty program, " << traced
		  << " ns counted (+" << traced - floor << " ns for the program)\n";
}

} // namespace

namespace {

// Two ECBs, one EPID table (stride 2): each finds its own EPID.
TEST(bpf_translate, ecbs_share_an_epid_table)
{
	SKIP_WITHOUT_BPF();
	harness h;
	h.prog = traced_args();
	h.prog.clauses.push_back(h.prog.clauses[0]);
	ASSERT_TRUE(h.prepare()) << h.error;
	int table = create_epid_table(h.maps, 2 * 1024);
	set_epid(table, 2 * SYS_getpgid + 0, 3);
	set_epid(table, 2 * SYS_getpgid + 1, 4);
	set_epid(table, 2 * SYS_getppid + 1, 5);
	probe_spec s;
	s.ctx = ctx_kind::sys_enter;
	s.raw_nargs = 2;
	s.ecbs = {{0, 0, table, 2 * 1024, 2, 0}, {1, 0, table, 2 * 1024, 2, 1}};
	ASSERT_TRUE(h.finish(s)) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_ACTIVE);
	int link = bpf_raw_tracepoint_open("sys_enter", h.prog_fd);
	ASSERT_GE(link, 0) << std::strerror(errno);
	syscall(SYS_getpgid, 0);
	syscall(SYS_getppid);
	close(link);
	std::vector<uint32_t> epids;
	for (auto &f : h.samples())
		epids.push_back(at<uint32_t>(f, 8));
	EXPECT_EQ(epids, (std::vector<uint32_t>{3, 4, 5}));
}

} // namespace
