// SPDX-License-Identifier: MIT
// Attaching (core/engine/bpf/attach.hpp) on this kernel: counting
// programs on the sys_enter raw tracepoint and on cpu-clock perf events,
// detached by closing; consumer programs run on a chosen CPU; the plugin
// ABI's attach descriptions read with and without the 1.1 fields.
#include "runtime_support.hpp"

#include "attach.hpp"
#include "fd.hpp"

#include <gtest/gtest.h>

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>
#include <utility>

namespace {

using namespace dt::engines::bpf;
using namespace dt::test::bpf;

// Spin one thread pinned to each CPU until destroyed.
class busy_cpus {
public:
	explicit busy_cpus(const std::vector<uint32_t> &cpus)
	{
		for (uint32_t c : cpus)
			threads_.emplace_back([this, c] {
				cpu_set_t set;
				CPU_ZERO(&set);
				CPU_SET(c, &set);
				(void)sched_setaffinity(0, sizeof(set), &set);
				while (!stop_.load(std::memory_order_relaxed)) {
				}
			});
	}
	~busy_cpus()
	{
		stop_ = true;
		for (std::thread &t : threads_)
			t.join();
	}
	busy_cpus(const busy_cpus &) = delete;
	busy_cpus &operator=(const busy_cpus &) = delete;

private:
	std::atomic<bool> stop_{false};
	std::vector<std::thread> threads_;
};

class attach_test : public ::testing::Test {
protected:
	void SetUp() override
	{
		if (std::string why = bpf_unusable(); !why.empty())
			GTEST_SKIP() << "bpf() is not usable here: " << why;
		ncpus_ = libbpf_num_possible_cpus();
		LIBBPF_OPTS(bpf_map_create_opts, o);
		counts_.reset(bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_test", 4, 8,
					     static_cast<uint32_t>(ncpus_), &o));
		ASSERT_TRUE(counts_);
	}

	uint64_t count(uint32_t key) const
	{
		uint64_t v = 0;
		EXPECT_EQ(bpf_map_lookup_elem(counts_.get(), &key, &v), 0);
		return v;
	}
	uint64_t total() const
	{
		uint64_t n = 0;
		for (int c = 0; c < ncpus_; c++)
			n += count(static_cast<uint32_t>(c));
		return n;
	}

	// counts[key] += 1, where key is the CPU (per_cpu) or 0.
	void count_into(std::vector<bpf_insn> &v, bool per_cpu)
	{
		if (per_cpu) {
			v.push_back(call(BPF_FUNC_get_smp_processor_id));
			v.push_back(stx_w(BPF_REG_10, BPF_REG_0, -8));
		} else {
			v.push_back(st_w(BPF_REG_10, -8, 0));
		}
		ld_map_fd(v, BPF_REG_1, counts_.get());
		v.push_back(mov64_reg(BPF_REG_2, BPF_REG_10));
		v.push_back(add64_imm(BPF_REG_2, -8));
		v.push_back(call(BPF_FUNC_map_lookup_elem));
		v.push_back(jeq_imm(BPF_REG_0, 0, 2));
		v.push_back(mov64_imm(BPF_REG_1, 1));
		v.push_back(atomic_add64(BPF_REG_0, BPF_REG_1, 0));
		v.push_back(mov64_imm(BPF_REG_0, 0));
		v.push_back(exit_insn());
	}

	int ncpus_ = 1;
	unique_fd counts_;
};

TEST_F(attach_test, raw_tracepoint_counts_getppid_until_detached)
{
	// if (ctx->args[1] != __NR_getppid) return 0; counts[0]++
	std::vector<bpf_insn> v;
	v.push_back(ldx_dw(BPF_REG_2, BPF_REG_1, 8));
	v.push_back(jeq_imm(BPF_REG_2, SYS_getppid, 2));
	v.push_back(mov64_imm(BPF_REG_0, 0));
	v.push_back(exit_insn());
	count_into(v, false);
	std::string log;
	unique_fd prog(load(BPF_PROG_TYPE_RAW_TRACEPOINT, v, &log));
	ASSERT_TRUE(prog) << log;

	attach_point p;
	p.kind = DT_BPF_ATTACH_RAW_TRACEPOINT;
	p.target = "sys_enter";
	p.ctx = DT_BPF_CTX_SYS_ENTER;
	auto links = attach(p, prog.get(), "syscall::getppid:entry");
	ASSERT_EQ(links.size(), 1U);
	for (int i = 0; i < 1000; i++)
		(void)syscall(SYS_getppid);
	uint64_t n = count(0);
	EXPECT_GE(n, 1000U);

	links.clear(); // detach
	for (int i = 0; i < 100; i++)
		(void)syscall(SYS_getppid);
	EXPECT_EQ(count(0), n);
}

// A probe's own event (plugin.h ABI 1.5): the tracepoint
// syscalls:sys_enter_getppid, which fires for getppid() alone, found by
// its tracefs ID (0: read from tracefs) and detached by closing.
TEST_F(attach_test, tracepoint_counts_getppid_alone_until_detached)
{
	std::vector<bpf_insn> v;
	count_into(v, false);
	std::string log;
	unique_fd prog(load(BPF_PROG_TYPE_TRACEPOINT, v, &log));
	ASSERT_TRUE(prog) << log;

	attach_point p;
	p.kind = DT_BPF_ATTACH_TRACEPOINT;
	p.target = "syscalls:sys_enter_getppid";
	p.ctx = DT_BPF_CTX_TP_RECORD;
	p.nargs = 16;
	p.argmap.fill(-1);
	ASSERT_EQ(unsupported(p), "");
	std::vector<unique_fd> links;
	try {
		links = attach(p, prog.get(), "syscall::getppid:entry");
	} catch (const std::exception &e) {
		GTEST_SKIP() << "no syscalls tracepoints here: " << e.what();
	}
	ASSERT_EQ(links.size(), 1U);
	for (int i = 0; i < 1000; i++)
		(void)syscall(SYS_getppid);
	uint64_t n = count(0);
	EXPECT_GE(n, 1000U);
	for (int i = 0; i < 1000; i++)
		(void)syscall(SYS_getpgid, 0); // not this event
	EXPECT_LT(count(0), n + 1000);

	links.clear(); // detach
	uint64_t after = count(0);
	for (int i = 0; i < 100; i++)
		(void)syscall(SYS_getppid);
	EXPECT_EQ(count(0), after);
}

TEST_F(attach_test, perf_event_on_one_cpu_and_on_every_online_cpu)
{
	std::vector<bpf_insn> v;
	count_into(v, true);
	std::string log;
	unique_fd prog(load(BPF_PROG_TYPE_PERF_EVENT, v, &log));
	ASSERT_TRUE(prog) << log;

	std::vector<uint32_t> cpus = online_cpus();
	ASSERT_FALSE(cpus.empty());
	// An idle vCPU of this VM (Firecracker) gets few cpu-clock samples
	// (bpftrace's profile:ms:1 too): keep every CPU busy meanwhile.
	busy_cpus busy(cpus);
	attach_point tick;
	tick.kind = DT_BPF_ATTACH_PERF_EVENT;
	tick.period_ns = 1'000'000;
	tick.cpu = static_cast<int32_t>(cpus.back());
	tick.ctx = DT_BPF_CTX_PERF;
	{
		auto links = attach(tick, prog.get(), "profile:::tick-1ms");
		ASSERT_EQ(links.size(), 1U);
		std::this_thread::sleep_for(std::chrono::milliseconds(100));
	}
	uint64_t on_it = count(cpus.back());
	EXPECT_GE(on_it, 20U) << "1 ms ticks over 100 ms";
	EXPECT_EQ(total(), on_it) << "tick-N fires on its one CPU";

	attach_point prof = tick;
	prof.cpu = -1;
	{
		auto links = attach(prof, prog.get(), "profile:::profile-1000");
		EXPECT_EQ(links.size(), cpus.size());
		std::this_thread::sleep_for(std::chrono::milliseconds(100));
	}
	for (uint32_t c : cpus)
		EXPECT_GT(count(c), c == cpus.back() ? on_it : 0U) << "CPU " << c;
	uint64_t after = total();
	std::this_thread::sleep_for(std::chrono::milliseconds(20));
	EXPECT_EQ(total(), after) << "detached when the fds closed";
}

TEST_F(attach_test, consumer_programs_run_on_the_cpu_asked_for)
{
	std::vector<bpf_insn> v;
	count_into(v, true);
	unique_fd prog(load(BPF_PROG_TYPE_RAW_TRACEPOINT, v));
	ASSERT_TRUE(prog);
	for (uint32_t c : online_cpus()) {
		uint64_t before = count(c);
		run_on_cpu(prog.get(), c);
		EXPECT_EQ(count(c), before + 1) << "CPU " << c;
	}
}

TEST(attach_point_of, reads_the_abi_1_1_fields_only_when_present)
{
	dt_bpf_attach_t a{};
	a.sz = sizeof(a);
	a.kind = DT_BPF_ATTACH_RAW_TRACEPOINT;
	a.target = "sys_exit";
	a.ctx = DT_BPF_CTX_SYS_EXIT;
	a.nargs = 2;
	a.has_argmap = 1;
	for (int i = 0; i < 10; i++)
		a.argmap[i] = 9 - i;
	attach_point p = attach_point_of(a);
	EXPECT_EQ(p.target, "sys_exit");
	EXPECT_EQ(p.ctx, DT_BPF_CTX_SYS_EXIT);
	EXPECT_EQ(p.nargs, 2U);
	EXPECT_EQ(p.argmap[0], 9);
	EXPECT_EQ(ctx_kind_of(p), ctx_kind::sys_exit);
	EXPECT_EQ(prog_type_of(p), BPF_PROG_TYPE_RAW_TRACEPOINT);
	EXPECT_EQ(unsupported(p), "");

	// An ABI 1.0 plugin: ctx, nargs and argmap are beyond its sz.
	a.sz = offsetof(dt_bpf_attach_t, ctx);
	attach_point old = attach_point_of(a);
	EXPECT_EQ(old.ctx, DT_BPF_CTX_RAW);
	EXPECT_EQ(old.nargs, 0U);
	EXPECT_EQ(old.argmap[0], 0);

	dt_bpf_attach_t pe{};
	pe.sz = offsetof(dt_bpf_attach_t, ctx);
	pe.kind = DT_BPF_ATTACH_PERF_EVENT;
	pe.period_ns = 1000;
	attach_point q = attach_point_of(pe);
	EXPECT_EQ(q.ctx, DT_BPF_CTX_PERF);
	EXPECT_EQ(prog_type_of(q), BPF_PROG_TYPE_PERF_EVENT);
	EXPECT_EQ(unsupported(q), "");
}

TEST(own_point_of, reads_the_abi_1_5_fields_only_when_present)
{
	dt_bpf_attach_t a{};
	a.sz = sizeof(a);
	a.kind = DT_BPF_ATTACH_RAW_TRACEPOINT;
	a.target = "sys_enter";
	a.own_kind = DT_BPF_ATTACH_TRACEPOINT;
	a.own_target = "syscalls:sys_enter_read";
	a.own_offset = 7;
	a.own_ctx = DT_BPF_CTX_TP_RECORD;
	a.own_nargs = 64;
	for (int i = 0; i < 10; i++)
		a.own_argmap[i] = i < 6 ? 16 + 8 * i : -1;
	attach_point p = own_point_of(a);
	EXPECT_EQ(p.kind, DT_BPF_ATTACH_TRACEPOINT);
	EXPECT_EQ(p.target, "syscalls:sys_enter_read");
	EXPECT_EQ(p.offset, 7U);
	EXPECT_EQ(ctx_kind_of(p), ctx_kind::tp_record);
	EXPECT_EQ(prog_type_of(p), BPF_PROG_TYPE_TRACEPOINT);
	EXPECT_EQ(unsupported(p), "");

	// Only the probe's arguments are read: the record ends after them.
	limit_record_args(p, 2);
	EXPECT_EQ(p.argmap[1], 24);
	EXPECT_EQ(p.argmap[2], -1);
	EXPECT_EQ(p.nargs, 32U);
	limit_record_args(p, 0);
	EXPECT_EQ(p.argmap[0], -1);
	EXPECT_EQ(p.nargs, 8U);

	// An offset the program cannot read (inside the record's first word).
	attach_point bad = own_point_of(a);
	bad.argmap[0] = 4;
	EXPECT_NE(unsupported(bad), "");

	// An ABI 1.4 plugin: no own event.
	a.sz = offsetof(dt_bpf_attach_t, own_kind);
	EXPECT_EQ(own_point_of(a).kind, DT_BPF_ATTACH_NONE);
}

TEST(attach_point_of, reads_the_abi_1_6_field_formats_of_a_tracepoint_record)
{
	// sched_switch as the sdt provider describes it: prev_comm (an
	// array: its address), prev_pid (4 bytes, signed), a __data_loc.
	dt_bpf_attach_t a{};
	a.sz = sizeof(a);
	a.kind = DT_BPF_ATTACH_TRACEPOINT;
	a.target = "sched:sched_switch";
	a.ctx = DT_BPF_CTX_TP_RECORD;
	a.nargs = 64;
	a.has_argmap = 1;
	for (int i = 0; i < 10; i++)
		a.argmap[i] = -1;
	a.argmap[0] = 8;
	a.argfmt[0] = DT_BPF_TP_ADDR;
	a.argmap[1] = 28;
	a.argfmt[1] = DT_BPF_TP_SIZE(4) | DT_BPF_TP_SIGNED;
	a.argmap[2] = 60;
	a.argfmt[2] = DT_BPF_TP_SIZE(4) | DT_BPF_TP_DATA_LOC;
	attach_point p = attach_point_of(a);
	EXPECT_EQ(p.argfmt[1], DT_BPF_TP_SIZE(4) | DT_BPF_TP_SIGNED);
	EXPECT_EQ(unsupported(p), "");

	// What the kernel would refuse: an unaligned load, a load past the
	// record, a size that is no load's, two kinds at once.
	for (auto [off, fmt] : {std::pair<int32_t, uint32_t>{30, DT_BPF_TP_SIZE(4)},
				{64, DT_BPF_TP_SIZE(2)},
				{32, DT_BPF_TP_SIZE(3)},
				{32, DT_BPF_TP_ADDR | DT_BPF_TP_DATA_LOC}}) {
		attach_point bad = p;
		bad.argmap[3] = off;
		bad.argfmt[3] = fmt;
		EXPECT_NE(unsupported(bad), "") << off << " " << fmt;
	}

	// An ABI 1.5 plugin: every field is the 8-byte value.
	a.sz = offsetof(dt_bpf_attach_t, argfmt);
	EXPECT_EQ(attach_point_of(a).argfmt[1], 0U);
	EXPECT_NE(unsupported(attach_point_of(a)), ""); // 28 is no 8-byte field
}

TEST(use_own_points, only_for_few_distinct_filters_all_with_own_events)
{
	// k_own_points_max distinct values (one probe twice), all with own
	// events: each at its own (never while k_own_points_max is 0).
	std::vector<uint32_t> few;
	for (uint32_t f = 0; f < k_own_points_max; f++)
		few.push_back(f);
	if (!few.empty())
		few.push_back(few.front());
	EXPECT_EQ(use_own_points(few, true), k_own_points_max > 0);
	EXPECT_FALSE(use_own_points(few, false)); // one without its own event
	EXPECT_FALSE(use_own_points({}, true));
	std::vector<uint32_t> many = few;
	many.push_back(k_own_points_max); // one value too many: syscall:::entry's way
	EXPECT_FALSE(use_own_points(many, true));
}

TEST(attach_point_of, kinds_this_engine_cannot_attach_say_so)
{
	attach_point k;
	k.kind = DT_BPF_ATTACH_FENTRY;
	k.target = "vfs_read";
	// fentry needs the function's BTF id (offset) and the raw context.
	EXPECT_EQ(unsupported(k), "the provider named no BTF function for its fentry");
	k.offset = 1234;
	EXPECT_EQ(unsupported(k), "");
	EXPECT_EQ(prog_type_of(k), BPF_PROG_TYPE_TRACING);
	EXPECT_EQ(load_target_of(k).type, BPF_TRACE_FENTRY);
	EXPECT_EQ(load_target_of(k).btf_id, 1234u);
	k.ctx = DT_BPF_CTX_REGS;
	EXPECT_NE(unsupported(k), "");
	// Where the trampoline cannot be had: a kprobe, a kretprobe for fexit.
	k.kind = DT_BPF_ATTACH_FEXIT;
	attach_point f = kprobe_fallback(k);
	EXPECT_EQ(f.kind, DT_BPF_ATTACH_KRETPROBE);
	EXPECT_EQ(f.ctx, DT_BPF_CTX_REGS_RETURN);
	EXPECT_EQ(f.target, "vfs_read");
	EXPECT_EQ(f.offset, 0u);
	EXPECT_EQ(unsupported(f), "");
	k.kind = DT_BPF_ATTACH_FENTRY;
	EXPECT_EQ(kprobe_fallback(k).kind, DT_BPF_ATTACH_KPROBE);
	EXPECT_EQ(kprobe_fallback(k).ctx, DT_BPF_CTX_REGS);
	// kprobes are (fbt), with the pt_regs contexts only.
	k = attach_point{};
	k.target = "vfs_read";
	k.kind = DT_BPF_ATTACH_KPROBE;
	EXPECT_EQ(unsupported(k),
		  "argument context 0 on a kprobe is not supported by the bpf engine");
	attach_point r;
	r.kind = DT_BPF_ATTACH_RAW_TRACEPOINT;
	EXPECT_NE(unsupported(r), "");
}

// Many single kprobes of one kind become one kprobe_multi point: each
// distinct function once, in order, its index the attach cookie; a
// kprobe_multi program is loaded for BPF_TRACE_KPROBE_MULTI.
TEST(attach_point, kprobe_multi_of_single_kprobes)
{
	auto kp = [](const char *f) {
		attach_point p;
		p.kind = DT_BPF_ATTACH_KRETPROBE;
		p.ctx = DT_BPF_CTX_REGS_RETURN;
		p.target = f;
		return p;
	};
	attach_point a = kp("vfs_read"), b = kp("vfs_write"), c = kp("vfs_read");
	EXPECT_TRUE(is_single_kprobe(a));
	attach_point off = a;
	off.offset = 4;
	EXPECT_FALSE(is_single_kprobe(off)); // a probe inside the function
	attach_point wrong = a;
	wrong.ctx = DT_BPF_CTX_REGS;
	EXPECT_FALSE(is_single_kprobe(wrong));
	std::vector<uint32_t> cookie;
	attach_point m = kprobe_multi_of({&a, &b, &c}, cookie);
	EXPECT_EQ(m.kind, DT_BPF_ATTACH_KRETPROBE);
	EXPECT_EQ(m.ctx, DT_BPF_CTX_REGS_RETURN);
	EXPECT_EQ(m.multi, (std::vector<std::string>{"vfs_read", "vfs_write"}));
	EXPECT_EQ(cookie, (std::vector<uint32_t>{0, 1, 0}));
	EXPECT_FALSE(is_single_kprobe(m));
	EXPECT_EQ(load_target_of(m).type, BPF_TRACE_KPROBE_MULTI);
	EXPECT_EQ(m.describe(), "kretprobe_multi on 2 functions");
	EXPECT_EQ(unsupported(m), "");
}

// Single uprobes of one object, process and kind become one uprobe_multi
// point: each distinct offset once, in order, its index the attach
// cookie; USDT sites (arguments, a semaphore) stay single.
TEST(attach_point, uprobe_multi_of_single_uprobes)
{
	auto up = [](uint64_t off) {
		attach_point p;
		p.kind = DT_BPF_ATTACH_UPROBE;
		p.ctx = DT_BPF_CTX_REGS;
		p.target = "/proc/42/root/usr/lib/x86_64-linux-gnu/libc.so.6";
		p.pid = 42;
		p.offset = off;
		return p;
	};
	attach_point a = up(0x1000), b = up(0x2040), c = up(0x1000);
	EXPECT_TRUE(is_single_uprobe(a));
	attach_point usdt = a;
	usdt.ctx = DT_BPF_CTX_USDT;
	EXPECT_FALSE(is_single_uprobe(usdt));
	attach_point sem = a;
	sem.ref_ctr_offset = 0x88;
	EXPECT_FALSE(is_single_uprobe(sem));
	std::vector<uint32_t> cookie;
	attach_point m = uprobe_multi_of({&a, &b, &c}, cookie);
	EXPECT_EQ(m.kind, DT_BPF_ATTACH_UPROBE);
	EXPECT_EQ(m.pid, 42);
	EXPECT_EQ(m.multi_offsets, (std::vector<uint64_t>{0x1000, 0x2040}));
	EXPECT_EQ(cookie, (std::vector<uint32_t>{0, 1, 0}));
	EXPECT_FALSE(is_single_uprobe(m));
	EXPECT_EQ(static_cast<uint32_t>(load_target_of(m).type), k_trace_uprobe_multi);
	EXPECT_EQ(m.describe(),
		  "uprobe_multi on 2 offsets in /proc/42/root/usr/lib/x86_64-linux-gnu/libc.so.6");
	EXPECT_EQ(unsupported(m), "");
}

// A filter program (plugin.h ABI 1.6) is read only when present and
// checked before any program is built: known steps, raw arguments the
// tracepoint passes, loads of 1/2/4/8 bytes, a stack within bounds whose
// depth at each step does not depend on the path, forward jumps that land
// inside the program.
TEST(filter_steps, are_read_and_checked)
{
	dt_bpf_attach_t a{};
	a.sz = sizeof(a);
	a.kind = DT_BPF_ATTACH_RAW_TRACEPOINT;
	a.target = "net_dev_queue";
	a.nargs = 1;
	a.has_filter = 1;
	a.filter = 6;
	a.filter_nsteps = 4;
	a.filter_steps[0] = {DT_BPF_FOP_ARG, 0, 0};
	a.filter_steps[1] = {DT_BPF_FOP_LOAD, 8, 200};
	a.filter_steps[2] = {DT_BPF_FOP_JEQ, 1, 0};
	a.filter_steps[3] = {DT_BPF_FOP_LOAD, 1, 9};
	attach_point p = attach_point_of(a);
	ASSERT_EQ(p.filter_steps.size(), 4U);
	EXPECT_EQ(p.filter_arg, -1);
	EXPECT_EQ(unsupported(p), "");

	dt_bpf_attach_t old = a;
	old.sz = offsetof(dt_bpf_attach_t, filter_nsteps); // an ABI 1.5 plugin
	EXPECT_TRUE(attach_point_of(old).filter_steps.empty());

	using steps = std::vector<std::array<int64_t, 3>>;
	EXPECT_EQ(filter_steps_problem(steps{{DT_BPF_FOP_ARG, 0, 0}}, 1), "");
	EXPECT_NE(filter_steps_problem(steps{{DT_BPF_FOP_ARG, 1, 0}}, 1), "");	// no arg 1
	EXPECT_NE(filter_steps_problem(steps{{DT_BPF_FOP_LOAD, 3, 0}}, 1), ""); // 3 bytes
	EXPECT_NE(filter_steps_problem(steps{{DT_BPF_FOP_PEEK, 0, 0}}, 1), ""); // empty
	EXPECT_NE(filter_steps_problem(steps{{DT_BPF_FOP_JNE, 2, 0}}, 1), "");	// past end
	EXPECT_NE(filter_steps_problem(steps{{99, 0, 0}}, 1), "");		// unknown
	EXPECT_NE(filter_steps_problem(steps{{DT_BPF_FOP_RSH, 0, 64}}, 1), ""); // shift
	steps deep(DT_BPF_FILTER_STACK + 1, {DT_BPF_FOP_PUSH, 0, 0});
	EXPECT_NE(filter_steps_problem(deep, 1), "");
	// A jump over a PUSH: the depth after it depends on the path.
	EXPECT_NE(filter_steps_problem(steps{{DT_BPF_FOP_JEQ, 1, 0},
					     {DT_BPF_FOP_PUSH, 0, 0},
					     {DT_BPF_FOP_CONST, 0, 1}},
				       1),
		  "");
	// A jump over a step that keeps the depth is fine; over one that pops
	// it is not.
	EXPECT_EQ(filter_steps_problem(steps{{DT_BPF_FOP_PUSH, 0, 0},
					     {DT_BPF_FOP_JEQ, 1, 0},
					     {DT_BPF_FOP_PEEK, 0, 0},
					     {DT_BPF_FOP_CONST, 0, 1}},
				       1),
		  "");
	EXPECT_NE(filter_steps_problem(steps{{DT_BPF_FOP_PUSH, 0, 0},
					     {DT_BPF_FOP_JEQ, 1, 0},
					     {DT_BPF_FOP_ADD, 0, 0},
					     {DT_BPF_FOP_CONST, 0, 1}},
				       1),
		  "");
}

} // namespace
