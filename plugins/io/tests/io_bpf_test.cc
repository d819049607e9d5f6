// SPDX-License-Identifier: MIT
// dt_io.so against the running kernel: the probes attach to the block
// layer's raw tracepoints with arguments of the right type (BTF), the wait
// probes say why they cannot; then, as root on the bpf engine, real I/O:
// the Guide's per-device byte count (io:::start, dev_statname, b_bcount)
// for a known direct write to a loop device equals what /proc/diskstats
// counted for it, every request issued is done, and a file's page-cache
// writeback names the file (fileinfo_t).
#include "run_dtrace.hpp"
#include "tp_table_checks.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using dt::test::attach_every_probe;
using dt::test::kernel_btf;
using dt::test::plugin_handle;

TEST(IoBpf, ProbesAttachToTheBlockTracepoints)
{
	plugin_handle h(DT_IO_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_every_probe(h, "io");
	ASSERT_EQ(all.size(), 4u);
	EXPECT_EQ(all["blk_mq_start_request:start"].rc, 0);
	EXPECT_STREQ(all["blk_mq_start_request:start"].a.target, "block_rq_issue");
	EXPECT_EQ(all["blk_update_request:done"].rc, 0);
	EXPECT_STREQ(all["blk_update_request:done"].a.target, "block_rq_complete");
	for (const char *name : {"wait-start", "wait-done"}) {
		const auto &r = all[std::string(":") + name];
		EXPECT_EQ(r.rc, -ENOTSUP) << name;
		EXPECT_EQ(r.message.rfind(std::string("io:::") + name + " needs ", 0), 0u)
			<< r.message;
	}
	kernel_btf btf;
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	EXPECT_EQ(dt::test::check_against_btf(h, btf, all, [](const std::string &t) { return t; }),
		  6u);
}

// Bytes read, written and discarded on `dev` so far (/proc/diskstats:
// sectors of 512 bytes in fields 6, 10 and 17).
long long diskstats_bytes(const std::string &dev)
{
	std::ifstream in("/proc/diskstats");
	std::string line;
	while (std::getline(in, line)) {
		std::istringstream f(line);
		std::vector<std::string> t;
		for (std::string w; f >> w;)
			t.push_back(w);
		if (t.size() > 9 && t[2] == dev)
			return 512 * (std::stoll(t[5]) + std::stoll(t[9]) +
				      (t.size() > 16 ? std::stoll(t[16]) : 0));
	}
	return -1;
}

// A loop device over a file of `mb` MiB in $TMPDIR, detached at the end.
class loop_device {
public:
	explicit loop_device(int mb)
	{
		file_ = std::filesystem::temp_directory_path() /
			("dt-io-test-" + std::to_string(getpid()));
		auto r =
			dt::test::run({"/usr/bin/truncate", "-s", std::to_string(mb) + "M", file_});
		if (r.status != 0)
			return;
		r = dt::test::run({"/usr/sbin/losetup", "-f", "--show", file_});
		if (r.status == 0 && r.out.rfind("/dev/", 0) == 0)
			dev_ = r.out.substr(0, r.out.find('\n'));
	}
	~loop_device()
	{
		if (!dev_.empty())
			(void)dt::test::run({"/usr/sbin/losetup", "-d", dev_});
		std::filesystem::remove(file_);
	}
	loop_device(const loop_device &) = delete;
	loop_device &operator=(const loop_device &) = delete;
	const std::string &dev() const { return dev_; }	    // "/dev/loopN"
	std::string name() const { return dev_.substr(5); } // "loopN"

private:
	std::filesystem::path file_;
	std::string dev_;
};

// The value printed for `key` by a one-key sum aggregation, or -1.
long long agg_value(const std::string &out, const std::string &key)
{
	for (const std::string &l : dt::test::lines(out)) {
		std::istringstream f(l);
		std::string k;
		long long v;
		if (f >> k >> v && k == key)
			return v;
	}
	return -1;
}

TEST(IoBpf, StartBytesPerDeviceMatchDiskstats)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (loop devices, the bpf engine)";
	loop_device loop(8);
	if (loop.dev().empty())
		GTEST_SKIP() << "cannot set up a loop device (losetup)";
	usleep(300000); // udev's first look at the new device
	long long before = diskstats_bytes(loop.name());
	ASSERT_GE(before, 0) << loop.name() << " not in /proc/diskstats";
	// 256 direct writes of 4 KiB: 1 MiB the page cache does not absorb.
	auto r = dt::test::dtrace(
		{"-q", "-n", "io:::start { @[args[1]->dev_statname] = sum(args[0]->b_bcount); }",
		 "-n", "io:::done { @done[args[1]->dev_statname] = sum(args[0]->b_bcount); }", "-n",
		 "END { printa(\"%s %@d\\n\", @); printa(\"done-%s %@d\\n\", @done); }", "-c",
		 "/usr/bin/dd if=/dev/zero of=" + loop.dev() + " bs=4096 count=256 oflag=direct"});
	ASSERT_EQ(r.status, 0) << r.err;
	long long after = diskstats_bytes(loop.name());
	long long traced = agg_value(r.out, loop.name());
	EXPECT_EQ(traced, after - before) << r.out;
	EXPECT_GE(traced, 1 << 20) << r.out;
	EXPECT_EQ(agg_value(r.out, "done-" + loop.name()), traced) << r.out;
}

// The Guide's latency idiom: a request is known at done by its device and
// block (b_edev, b_blkno), as at start. 256 synchronous direct writes are
// 256 requests, each seen at both ends, by the process that issued it.
TEST(IoBpf, GuideLatencyByDeviceAndBlock)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (loop devices, the bpf engine)";
	loop_device loop(8);
	if (loop.dev().empty())
		GTEST_SKIP() << "cannot set up a loop device (losetup)";
	std::string dev = "args[1]->dev_statname == \"" + loop.name() + "\"";
	auto r = dt::test::dtrace(
		{"-q", "-n",
		 "io:::start /" + dev +
			 "/ { start[args[0]->b_edev, args[0]->b_blkno] = timestamp; "
			 "@who[execname, args[0]->b_flags & B_READ ? \"R\" : \"W\"] = count(); }",
		 "-n",
		 "io:::done /start[args[0]->b_edev, args[0]->b_blkno]/ { @n[\"matched\"] = count(); "
		 "@t[\"us\"] = quantize((timestamp - start[args[0]->b_edev, args[0]->b_blkno]) "
		 "/ 1000); start[args[0]->b_edev, args[0]->b_blkno] = 0; }",
		 "-n", "END { printa(\"%s %@d\\n\", @n); printa(\"%s %s %@d\\n\", @who); }", "-c",
		 "/usr/bin/dd if=/dev/zero of=" + loop.dev() + " bs=4096 count=256 oflag=direct"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(agg_value(r.out, "matched"), 256) << r.out;
	EXPECT_NE(r.out.find("dd W 256\n"), std::string::npos) << r.out;
}

TEST(IoBpf, DeviceAndBufferMembers)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (loop devices, the bpf engine)";
	loop_device loop(8);
	if (loop.dev().empty())
		GTEST_SKIP() << "cannot set up a loop device (losetup)";
	struct stat st {};
	ASSERT_EQ(stat(loop.dev().c_str(), &st), 0);
	std::string pred = "/args[1]->dev_statname == \"" + loop.name() + "\"/";
	auto r = dt::test::dtrace(
		{"-q", "-n",
		 "io:::start " + pred +
			 " { printf(\"%d %d %d %s %s %s %d %d\\n\", args[1]->dev_major, "
			 "args[1]->dev_minor, args[1]->dev_instance, args[1]->dev_name, "
			 "args[1]->dev_pathname, args[2]->fi_name, "
			 "args[0]->b_flags & (B_READ | B_WRITE | B_PHYS), args[0]->b_blkno); "
			 "exit(0); }",
		 "-c",
		 "/usr/bin/dd if=/dev/zero of=" + loop.dev() +
			 " bs=4096 seek=3 count=1 oflag=direct"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::string n = loop.name().substr(4);
	std::ostringstream want;
	want << major(st.st_rdev) << " " << minor(st.st_rdev) << " " << n << " " << loop.name()
	     << " " << loop.dev() << " <unknown> " << (0x100 | 0x20) << " " << 3 * 8 << "\n";
	EXPECT_EQ(dt::test::lines(r.out).at(0) + "\n", want.str()) << r.err;
}

TEST(IoBpf, PageCacheWritebackNamesTheFile)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (the bpf engine)";
	// A file on the build tree's file system, which is a disk's (not tmpfs).
	std::string file =
		std::string(dt::test::build_dir()) + "/dt-io-file-" + std::to_string(getpid());
	auto r = dt::test::dtrace(
		{"-q", "-n",
		 "io:::start /args[2]->fi_name == \"" + file.substr(file.rfind('/') + 1) +
			 "\"/ { @[args[2]->fi_fs, args[0]->b_flags & (B_WRITE | B_PAGEIO)] = "
			 "sum(args[0]->b_bcount); }",
		 "-n", "END { printa(\"%s %d %@d\\n\", @); }", "-c",
		 "/usr/bin/dd if=/dev/zero of=" + file + " bs=65536 count=4 conv=fsync"});
	std::filesystem::remove(file);
	ASSERT_EQ(r.status, 0) << r.err;
	std::istringstream f(r.out);
	std::string fs;
	int flags = 0;
	long long bytes = 0;
	if (!(f >> fs >> flags >> bytes)) {
		GTEST_SKIP() << "no I/O reached a block device for " << file
			     << " (not a disk file system?): " << r.out;
	}
	EXPECT_NE(fs, "<unknown>");
	EXPECT_EQ(flags, 0x100 | 0x10);
	EXPECT_GE(bytes, 4 * 65536);
}

} // namespace
