// SPDX-License-Identifier: MIT
// dt_sched.so against the running kernel: the probes attach to the
// scheduler's raw tracepoints with arguments of the right type (BTF), the
// ones Linux cannot give say why; then, as root on the bpf engine, real
// scheduling: the Guide's off-CPU time per process (sched:::off-cpu and
// on-cpu with a thread-local timestamp) for a process that sleeps a known
// time, and each probe that has an event firing under a known workload,
// with its arguments naming the threads they should.
#include "run_dtrace.hpp"
#include "tp_table_checks.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cerrno>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using dt::test::attach_every_probe;
using dt::test::kernel_btf;
using dt::test::plugin_handle;

TEST(SchedBpf, ProbesAttachToTheSchedulerTracepoints)
{
	plugin_handle h(DT_SCHED_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_every_probe(h, "sched");
	ASSERT_EQ(all.size(), 16u);
	std::map<std::string, std::string> events = {
		{"__schedule:on-cpu", "sched_exit_tp"},
		{"__schedule:remain-cpu", "sched_exit_tp"},
		{"__schedule:off-cpu", "sched_switch"},
		{"__schedule:preempt", "sched_switch"},
		{"TASK_INTERRUPTIBLE:sleep", "sched_switch"},
		{"TASK_UNINTERRUPTIBLE:sleep", "sched_switch"},
		{"ttwu_do_activate:enqueue", "sched_wakeup"},
		{"wake_up_new_task:enqueue", "sched_wakeup_new"},
		{"try_to_wake_up:wakeup", "sched_waking"},
		{"rt_mutex_setprio:change-pri", "sched_pi_setprio"},
		{"__resched_curr:surrender", "sched_set_need_resched_tp"},
	};
	kernel_btf btf;
	for (const auto &[key, event] : events) {
		const auto &r = all[key];
		if (r.rc == -ENOTSUP && btf.loaded() && !btf.raw_tracepoint(event)) {
			EXPECT_NE(r.message.find("which this kernel does not have"),
				  std::string::npos)
				<< r.message;
			continue;
		}
		ASSERT_EQ(r.rc, 0) << key << ": " << r.message;
		EXPECT_STREQ(r.a.target, event.c_str()) << key;
	}
	// The sleep states and is_switch are the filters.
	EXPECT_EQ(all["TASK_INTERRUPTIBLE:sleep"].a.filter_arg, 3);
	EXPECT_EQ(all["TASK_INTERRUPTIBLE:sleep"].a.filter, 1);
	EXPECT_EQ(all["TASK_UNINTERRUPTIBLE:sleep"].a.filter, 2);
	EXPECT_EQ(all["__schedule:on-cpu"].a.filter, 1);
	EXPECT_EQ(all["__schedule:remain-cpu"].a.filter, 0);
	EXPECT_EQ(all["__schedule:off-cpu"].a.has_filter, 0);
	for (const char *name :
	     {":dequeue", ":tick", ":schedctl-nopreempt", ":schedctl-preempt", ":schedctl-yield"}) {
		EXPECT_EQ(all[name].rc, -ENOTSUP) << name;
		EXPECT_EQ(all[name].message.rfind(std::string("sched:::") + (name + 1) + " needs ",
						  0),
			  0u)
			<< all[name].message;
	}
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	// off-cpu, wakeup, change-pri, surrender: 2 each; the enqueues 3 each.
	EXPECT_EQ(dt::test::check_against_btf(h, btf, all, [](const std::string &t) { return t; }),
		  14u);
}

// The Guide's "sched Provider" example: time off CPU per process, from
// off-cpu (in the thread leaving) to on-cpu (in the same thread, back).
TEST(SchedBpf, OffCpuTimeOfASleepingProcess)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	auto r = dt::test::dtrace(
		{"-q", "-n", "sched:::off-cpu /pid == $target/ { self->ts = timestamp; }", "-n",
		 "sched:::on-cpu /self->ts/ { @[execname] = sum(timestamp - "
		 "self->ts); @n[execname] = count(); self->ts = 0; }",
		 "-n", "END { printa(\"%s %@d\\n\", @); printa(\"n %s %@d\\n\", @n); }", "-c",
		 "/usr/bin/sleep 0.5"});
	ASSERT_EQ(r.status, 0) << r.err;
	long long ns = -1, n = -1;
	for (const std::string &l : dt::test::lines(r.out)) {
		std::istringstream f(l);
		std::string a, b;
		long long v;
		if (f >> a >> v && a == "sleep")
			ns = v;
		f.clear();
		f.str(l);
		if (f >> a >> b >> v && a == "n" && b == "sleep")
			n = v;
	}
	EXPECT_GE(ns, 500'000'000LL) << r.out;
	EXPECT_LT(ns, 3'000'000'000LL) << r.out;
	EXPECT_GE(n, 1) << r.out;
}

// curcpu kept in a variable (sched.d's cpuinfo_t *, translated into
// scratch memory as illumos does): its cpu_id is the CPU the probe fired
// on, in every firing; cpu_pset and illumos' pset inline are -1.
TEST(SchedBpf, CurcpuStoredInAVariable)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	auto r = dt::test::dtrace(
		{"-q", "-n",
		 "profile-997 { c = curcpu; @[c->cpu_id == cpu, c->cpu_pset, pset] = count(); }",
		 "-n", "tick-300ms { exit(0); }", "-n",
		 "END { printa(\"same %d pset %d %d n %@d\\n\", @); }"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::vector<std::string> out;
	for (const std::string &l : dt::test::lines(r.out))
		if (!l.empty())
			out.push_back(l);
	ASSERT_EQ(out.size(), 1u) << r.out;
	EXPECT_EQ(out[0].rfind("same 1 pset -1 -1 n ", 0), 0u) << r.out;
}

// More of the Guide's sched idioms: where a thread goes to sleep (its
// kernel stack at sched:::sleep: nanosleep's), and time on CPU per CPU
// (on-cpu to off-cpu in the same thread, keyed by cpu).
TEST(SchedBpf, GuideSleepStacksAndTimeOnCpu)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	auto r = dt::test::dtrace(
		{"-q", "-n", "sched:::sleep /pid == $target/ { @s[stack()] = count(); }", "-n",
		 "sched:::on-cpu { self->on = timestamp; }", "-n",
		 "sched:::off-cpu /self->on/ { @c[cpu] = sum(timestamp - self->on); self->on = 0; }",
		 "-n", "END { printa(@s); printa(\"cpu %d %@d\\n\", @c); }", "-c",
		 "/usr/bin/sleep 0.2"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("do_nanosleep"), std::string::npos) << r.out;
	int cpus = 0;
	for (const std::string &l : dt::test::lines(r.out)) {
		std::istringstream f(l);
		std::string k;
		long long c = -1, ns = -1;
		if (f >> k >> c >> ns && k == "cpu") {
			cpus++;
			EXPECT_GE(c, 0);
			EXPECT_LT(c, sysconf(_SC_NPROCESSORS_CONF));
			EXPECT_GT(ns, 0);
		}
	}
	EXPECT_GE(cpus, 1) << r.out;
}

// change-pri when a thread of higher priority waits for a
// priority-inheritance mutex the traced process holds (lent, then taken
// back), and remain-cpu when its sched_yield() finds nothing else to run.
TEST(SchedBpf, ChangePriAndRemainCpuFireForTheirCauses)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine, nice -5)";
	auto r = dt::test::dtrace(
		{"-q", "-n",
		 "sched:::change-pri /args[1]->pr_pid == $target/ { @[\"change-pri\"] = count(); "
		 "@pri[args[0]->pr_pri] = count(); }",
		 "-n", "sched:::remain-cpu /pid == $target/ { @[\"remain-cpu\"] = count(); }", "-n",
		 "END { printa(\"%s %@d\\n\", @); printa(\"pri %d %@d\\n\", @pri); }", "-c",
		 DT_SCHED_WORKLOAD});
	ASSERT_EQ(r.status, 0) << r.err;
	std::map<std::string, long long> seen;
	for (const std::string &l : dt::test::lines(r.out)) {
		std::istringstream f(l);
		std::string k;
		long long v;
		if (f >> k >> v)
			seen[k] = v;
	}
	EXPECT_GE(seen["change-pri"], 2) << r.out; // lent, taken back
	EXPECT_GE(seen["remain-cpu"], 1) << r.out;
}

// Under a workload that sleeps, wakes, forks and runs three CPU-bound
// loops (preempted on this machine's CPUs), every probe with an event but
// change-pri (priority inheritance) and remain-cpu (rare) fires, with
// arguments that name the traced processes.
TEST(SchedBpf, ProbesFireOnRealScheduling)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	dt::test::script_file script("for i in 1 2 3; do timeout 0.4 sh -c 'while :; do :; done' & "
				     "done\nsleep 0.6\nsync\nwait\n");
	std::string probes = "sched:::off-cpu, sched:::on-cpu, sched:::sleep, sched:::preempt, "
			     "sched:::enqueue, sched:::wakeup, sched:::surrender";
	auto r = dt::test::dtrace(
		{"-q", "-n", probes + " { @[probefunc, probename] = count(); }", "-n",
		 "sched:::wakeup, sched:::enqueue /args[1]->pr_pid == $target/ { "
		 "@t[probename] = count(); }",
		 "-n",
		 "sched:::enqueue /args[2]->cpu_id < 0 || args[2]->cpu_id > 4096/ { "
		 "@bad[\"cpu\"] = count(); }",
		 "-n", "sched:::on-cpu { @cpu = max(curcpu->cpu_id); }", "-n",
		 "END { printa(\"%s %s %@d\\n\", @); printa(\"target %s %@d\\n\", @t); "
		 "printa(\"bad %s %@d\\n\", @bad); printa(\"maxcpu %@d\\n\", @cpu); }",
		 "-c", script.path()});
	ASSERT_EQ(r.status, 0) << r.err;
	std::map<std::string, long long> seen;
	for (const std::string &l : dt::test::lines(r.out)) {
		std::istringstream f(l);
		std::string a, b;
		long long v;
		if (f >> a >> b >> v)
			seen[a + ":" + b] = v;
		else if (l.rfind("maxcpu ", 0) == 0)
			seen["maxcpu"] = std::stoll(l.substr(7));
	}
	for (const char *k : {"__schedule:off-cpu", "__schedule:on-cpu", "TASK_INTERRUPTIBLE:sleep",
			      "__schedule:preempt", "ttwu_do_activate:enqueue",
			      "wake_up_new_task:enqueue", "try_to_wake_up:wakeup",
			      "__resched_curr:surrender", "target:wakeup", "target:enqueue"})
		EXPECT_GE(seen[k], 1) << k << "\n" << r.out;
	EXPECT_EQ(seen.count("bad:cpu"), 0u) << r.out;
	EXPECT_LT(seen["maxcpu"], sysconf(_SC_NPROCESSORS_CONF)) << r.out;
}

} // namespace
