// SPDX-License-Identifier: MIT
// dt_lockstat.so against the running kernel: every probe is
// lock:contention_begin filtered on the exact LCB_F_* flags of its kind
// of lock, with args[0] the lock's pointer type (BTF says void *: the
// tracepoint does not know which lock it is given); then, as root on the
// bpf engine, real contention: four writers on one pipe contend for its
// struct mutex (pipe->mutex), which lockstat:::adaptive-* see, with the
// lock's owner readable through args[0].
#include "run_dtrace.hpp"
#include "tp_table_checks.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <set>
#include <sstream>
#include <string>

namespace {

using dt::test::attach_every_probe;
using dt::test::kernel_btf;
using dt::test::plugin_handle;

TEST(LockstatBpf, ProbesFilterContentionBeginByFlags)
{
	plugin_handle h(DT_LOCKSTAT_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_every_probe(h, "lockstat");
	ASSERT_EQ(all.size(), 10u);
	kernel_btf btf;
	if (btf.loaded() && !btf.raw_tracepoint("contention_begin")) {
		for (const auto &[key, r] : all) {
			EXPECT_EQ(r.rc, -ENOTSUP) << key;
			EXPECT_NE(r.message.find("which this kernel does not have"),
				  std::string::npos);
		}
		GTEST_SKIP() << "this kernel has no lock:contention_begin";
	}
	std::set<int64_t> flags;
	for (const auto &[key, r] : all) {
		ASSERT_EQ(r.rc, 0) << key << ": " << r.message;
		EXPECT_STREQ(r.a.target, "contention_begin") << key;
		EXPECT_EQ(r.a.has_filter_arg, 1) << key;
		EXPECT_EQ(r.a.filter_arg, 1) << key;
		EXPECT_EQ(r.a.filter_mask, 0x3fu) << key;
		EXPECT_TRUE(flags.insert(r.a.filter).second) << key << ": flags shared";
	}
	EXPECT_EQ(all["__mutex_lock_common:adaptive-spin"].a.filter, 0x21);
	EXPECT_EQ(all["__mutex_lock_common:adaptive-block"].a.filter, 0x20);
	EXPECT_EQ(all["queued_spin_lock_slowpath:spin-spin"].a.filter, 0x1);
	EXPECT_EQ(all["rwsem_down_write_slowpath:rw-block"].a.filter, 0x4);
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	// The tracepoint passes the lock as void *: each row names its type.
	EXPECT_EQ(dt::test::check_against_btf(h, btf, all,
					      [](const std::string &) { return "void *"; }),
		  10u);
}

// Contention needs the writers to run at once, which a loaded machine may
// not allow every time: up to five tries, the first with contention counts.
TEST(LockstatBpf, PipeWritersContendForItsMutex)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	dt::test::script_file script("{ for i in 1 2 3 4; do dd if=/dev/zero bs=512 count=40000 "
				     "status=none & done; wait; } | dd of=/dev/null bs=512 "
				     "status=none\n");
	long long n = 0;
	std::string out;
	for (int attempt = 0; attempt < 5 && n == 0; attempt++) {
		auto r = dt::test::dtrace({"-q", "-n",
					   "lockstat:::adaptive-spin, lockstat:::adaptive-block { "
					   "@[probename] = count(); @s[stack()] = count(); }",
					   "-n",
					   "dtrace:::END { printa(\"%s %@d\\n\", @); printa(@s); }",
					   "-c", script.path()});
		ASSERT_EQ(r.status, 0) << r.err;
		out = r.out;
		for (const std::string &l : dt::test::lines(r.out)) {
			std::istringstream f(l);
			std::string a;
			long long v;
			if (f >> a >> v && a.rfind("adaptive-", 0) == 0)
				n += v;
		}
	}
	EXPECT_GE(n, 1) << out;
	// The Guide's lockstat idiom: where the contended lock is taken.
	if (n > 0) {
		EXPECT_NE(out.find("pipe_"), std::string::npos) << out;
	}
}

} // namespace
