// SPDX-License-Identifier: MIT
// dt_lockstat.so against the running kernel: every probe is a wait from
// lock:contention_begin to the same thread's lock:contention_end
// (plugin.h ABI 1.9), filtered on the exact LCB_F_* flags of its kind of
// lock and a wait that ended with the lock taken, with args[0] the lock's
// pointer type (BTF says void *: the tracepoint does not know which lock
// it is given) and args[1] the time waited; then, as root on the bpf
// engine, real contention: eight writers on one pipe contend for its struct
// mutex (pipe->mutex), which lockstat:::adaptive-* see, with the lock's
// owner readable through args[0] and wait times that are positive and
// shorter than the run; and the lock subroutines on that mutex (mutex_owner()
// is the thread that just took it) and on a reader/writer spin lock.
#include "run_dtrace.hpp"
#include "tp_table_checks.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <set>
#include <sstream>
#include <string>

namespace {

using dt::test::attach_every_probe;
using dt::test::kernel_btf;
using dt::test::plugin_handle;

// Eight writers on one pipe: they contend for its struct mutex (pipe->mutex).
constexpr const char *k_pipe_writers =
	"{ for i in 1 2 3 4 5 6 7 8; do dd if=/dev/zero bs=4096 count=10000 status=none & "
	"done; wait; } | dd of=/dev/null bs=4096 status=none\n";

TEST(LockstatBpf, ProbesJoinContentionBeginAndEnd)
{
	plugin_handle h(DT_LOCKSTAT_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_every_probe(h, "lockstat");
	ASSERT_EQ(all.size(), 10u);
	kernel_btf btf;
	if (btf.loaded() &&
	    (!btf.raw_tracepoint("contention_begin") || !btf.raw_tracepoint("contention_end"))) {
		for (const auto &[key, r] : all) {
			EXPECT_EQ(r.rc, -ENOTSUP) << key;
			EXPECT_NE(r.message.find("which this kernel does not have"),
				  std::string::npos);
		}
		GTEST_SKIP() << "this kernel has no lock:contention_begin/end";
	}
	std::set<int64_t> flags;
	for (const auto &[key, r] : all) {
		ASSERT_EQ(r.rc, 0) << key << ": " << r.message;
		EXPECT_EQ(r.a.kind, DT_BPF_ATTACH_RAW_TRACEPOINT) << key;
		EXPECT_STREQ(r.a.target, "contention_end") << key;
		EXPECT_EQ(r.a.begin_kind, DT_BPF_ATTACH_RAW_TRACEPOINT) << key;
		EXPECT_STREQ(r.a.begin_target, "contention_begin") << key;
		EXPECT_EQ(r.a.begin_nargs, 2u) << key;
		EXPECT_EQ(r.a.nargs, 2u) << key;
		EXPECT_EQ(r.a.begin_key, 0) << key; // the lock, at both ends
		EXPECT_EQ(r.a.end_key, 0) << key;
		// args[0] the begin's lock, args[1] the time (raw 2 + 2).
		EXPECT_EQ(r.a.argmap[0], 0) << key;
		EXPECT_EQ(r.a.argmap[1], 4) << key;
		// end's ret (raw 3) is 0, then the begin's flags (raw 1) & 0x3f.
		ASSERT_EQ(r.a.filter_nsteps, 6u) << key;
		EXPECT_EQ(r.a.filter_steps[0].op, DT_BPF_FOP_ARG) << key;
		EXPECT_EQ(r.a.filter_steps[0].a, 3) << key;
		EXPECT_EQ(r.a.filter_steps[2].op, DT_BPF_FOP_DROP) << key;
		EXPECT_EQ(r.a.filter_steps[3].a, 1) << key;
		EXPECT_EQ(r.a.filter_steps[5].imm, 0x3f) << key;
		EXPECT_TRUE(flags.insert(r.a.filter).second) << key << ": flags shared";
	}
	EXPECT_EQ(all["__mutex_lock_common:adaptive-spin"].a.filter, 0x21);
	EXPECT_EQ(all["__mutex_lock_common:adaptive-block"].a.filter, 0x20);
	EXPECT_EQ(all["queued_spin_lock_slowpath:spin-spin"].a.filter, 0x1);
	EXPECT_EQ(all["rwsem_down_write_slowpath:rw-block"].a.filter, 0x4);
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	// Both tracepoints pass the lock as void *: each row names its type.
	auto begin = btf.raw_tracepoint("contention_begin");
	auto end = btf.raw_tracepoint("contention_end");
	ASSERT_EQ(begin->size(), 2u);
	ASSERT_EQ(end->size(), 2u);
	EXPECT_EQ((*begin)[0].type, "void *");
	EXPECT_EQ((*end)[0].type, "void *");
	for (const auto &[key, r] : all) {
		auto args = h.args(r.probe);
		ASSERT_EQ(args.size(), 2u) << key;
		EXPECT_EQ(args[1].native, "uint64_t") << key;
	}
}

// Contention needs the writers to run at once, which a loaded machine may
// not allow every time: up to five tries, the first with contention counts.
TEST(LockstatBpf, PipeWritersContendForItsMutex)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	dt::test::script_file script(k_pipe_writers);
	long long n = 0, lo = -1, hi = -1, run_ns = 0;
	std::string out;
	for (int attempt = 0; attempt < 5 && n == 0; attempt++) {
		auto t0 = std::chrono::steady_clock::now();
		auto r = dt::test::dtrace(
			{"-q", "-n",
			 "lockstat:::adaptive-spin, lockstat:::adaptive-block { "
			 "@[probename] = count(); @s[stack()] = count(); "
			 "@lo = min(args[1]); @hi = max(args[1]); }",
			 "-n",
			 "dtrace:::END { printa(\"%s %@d\\n\", @); printa(\"min %@d\\n\", @lo); "
			 "printa(\"max %@d\\n\", @hi); printa(@s); }",
			 "-c", script.path()});
		run_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
				 std::chrono::steady_clock::now() - t0)
				 .count();
		ASSERT_EQ(r.status, 0) << r.err;
		out = r.out;
		for (const std::string &l : dt::test::lines(r.out)) {
			std::istringstream f(l);
			std::string a;
			long long v;
			if (!(f >> a >> v))
				continue;
			if (a.rfind("adaptive-", 0) == 0)
				n += v;
			else if (a == "min")
				lo = v;
			else if (a == "max")
				hi = v;
		}
	}
	EXPECT_GE(n, 1) << out;
	// The time waited: more than nothing, less than the whole run.
	if (n > 0) {
		EXPECT_GT(lo, 0) << out;
		EXPECT_LT(hi, run_ns) << out;
	}
	// The Guide's lockstat idiom: where the contended lock is taken.
	if (n > 0) {
		EXPECT_NE(out.find("pipe_"), std::string::npos) << out;
	}
}

// The lock subroutines on a real lock: lockstat's struct mutex probes fire
// once the waiting thread has taken the contended mutex (the pipe's), so
// there mutex_owner() is the firing thread (curthread, and its task's pid
// is tid) with the flag bits masked off, mutex_owned() is true, and the
// mutex is adaptive, not a spin mutex. Each firing records its verdicts
// as one key; every key must be all true.
TEST(LockstatBpf, MutexSubroutinesSeeTheWaiterOwningTheMutex)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	dt::test::script_file script(k_pipe_writers);
	long long n = 0;
	std::string out;
	for (int attempt = 0; attempt < 5 && n == 0; attempt++) {
		auto r = dt::test::dtrace(
			{"-q", "-n",
			 "lockstat::__mutex_lock_common:adaptive-spin, "
			 "lockstat::__mutex_lock_common:adaptive-block { "
			 "this->t = (struct task_struct *)mutex_owner(args[0]); "
			 "@[mutex_owned(args[0]), this->t == curthread, this->t->pid == tid, "
			 "((uint64_t)this->t & 7) == 0, mutex_type_adaptive(args[0]), "
			 "mutex_type_spin(args[0]) == 0] = count(); }",
			 "-n", "dtrace:::END { printa(\"%d %d %d %d %d %d %@d\\n\", @); }", "-c",
			 script.path()});
		ASSERT_EQ(r.status, 0) << r.err;
		out = r.out;
		for (const std::string &l : dt::test::lines(r.out)) {
			std::istringstream f(l);
			int owned, is_cur, pid, aligned, adaptive, not_spin;
			long long c;
			if (!(f >> owned >> is_cur >> pid >> aligned >> adaptive >> not_spin >> c))
				continue;
			EXPECT_EQ(owned + is_cur + pid + aligned + adaptive + not_spin, 6) << l;
			n += c;
		}
	}
	EXPECT_GE(n, 1) << "no contention seen: " << out;
}

// rw_read_held(), rw_write_held(), rw_iswriter() on a real rwlock_t: six
// shells forking and exiting at once contend for tasklist_lock (written
// by fork and exit, read by wait), which lockstat's rw-spin probes see
// once the waiter holds it: taken for reading, held by readers and not by
// a writer (one may be waiting: rw_iswriter() says so); taken for
// writing, held by a writer.
TEST(LockstatBpf, RwlockSubroutinesSeeTheWaiterHoldingTheLock)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	dt::test::script_file script("for i in 1 2 3 4 5 6; do ( for j in $(seq 300); do "
				     "/bin/true; done ) & done; wait\n");
	long long reads = 0, writes = 0;
	std::string out;
	for (int attempt = 0; attempt < 5 && reads + writes == 0; attempt++) {
		auto r = dt::test::dtrace(
			{"-q", "-n",
			 "lockstat:::rw-spin { @[probefunc, rw_read_held(args[0]), "
			 "rw_write_held(args[0]), rw_iswriter(args[0])] = count(); }",
			 "-n", "dtrace:::END { printa(\"%s %d %d %d %@d\\n\", @); }", "-c",
			 script.path()});
		ASSERT_EQ(r.status, 0) << r.err;
		out = r.out;
		for (const std::string &l : dt::test::lines(r.out)) {
			std::istringstream f(l);
			std::string func;
			int read_held, write_held, iswriter;
			long long c;
			if (!(f >> func >> read_held >> write_held >> iswriter >> c))
				continue;
			if (func == "queued_read_lock_slowpath") {
				EXPECT_EQ(read_held, 1) << l;
				EXPECT_EQ(write_held, 0) << l;
				reads += c;
			} else {
				EXPECT_EQ(func, "queued_write_lock_slowpath") << l;
				EXPECT_EQ(read_held, 0) << l;
				EXPECT_EQ(write_held, 1) << l;
				EXPECT_EQ(iswriter, 1) << l;
				writes += c;
			}
		}
	}
	EXPECT_GE(reads + writes, 1) << "no reader/writer lock contention seen: " << out;
}

} // namespace
