// SPDX-License-Identifier: MIT
// Whole user stacks without frame pointers (the bpf engine's default, and
// -x ustackbytes; docs/ustack.md): the probe captures the registers and a
// copy of the user stack, the consumer unwinds it by CFI. dt_ustack_target (ustack_target.c,
// -O2 -fomit-frame-pointer) spins in main -> dt_ustack_outer ->
// dt_ustack_mid -> dt_ustack_leaf; a profile and a pid probe must see every
// one of those frames and libc's __libc_start_call_main below main. Debian's
// /usr/bin/sleep (no frame pointers either) shows its frames into libc.
#include "child_process.hpp"
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

using dt::test::child;
using dt::test::bpf_cli::bpf;
using dt::test::bpf_cli::dtrace;

// A frame line "obj`func+0x1a" -> "obj`func" (an address stays whole).
std::string frame_name(const std::string &line)
{
	std::string w;
	std::istringstream(line) >> w;
	return w.substr(0, w.find("+0x"));
}

// The stacks in dtrace's output, each a list of frames, leaf first: the
// frame lines of a ustack() record (or of an aggregation key, closed by its
// count). Blank lines and numbers end a stack.
std::vector<std::vector<std::string>> stacks(const std::string &out)
{
	std::vector<std::vector<std::string>> v(1);
	std::istringstream in(out);
	for (std::string l; std::getline(in, l);) {
		std::string w = frame_name(l);
		bool number = !w.empty() && w.find_first_not_of("0123456789") == std::string::npos;
		if (w.empty() || number) {
			if (!v.back().empty())
				v.emplace_back();
			continue;
		}
		v.back().push_back(w);
	}
	if (v.back().empty())
		v.pop_back();
	return v;
}

// Does s hold want's frames in order, each in a frame that contains it?
bool has_in_order(const std::vector<std::string> &s, const std::vector<std::string> &want)
{
	size_t j = 0;
	for (const auto &f : s)
		if (j < want.size() && f.find(want[j]) != std::string::npos)
			j++;
	return j == want.size();
}

// libc's internal functions are named from its split debug info
// (libc6-dbg, tools/install-deps.sh); without it the frame is libc's.
bool libc_debug_info()
{
	return std::filesystem::exists("/usr/lib/debug/.build-id");
}

const std::vector<std::string> k_chain = {
	"`dt_ustack_leaf", "`dt_ustack_mid", "`dt_ustack_outer", "target`main",
	libc_debug_info() ? "libc.so.6`__libc_start_call_main" : "libc.so.6`"};

TEST(UstackDwarf, ProfileOfProgramWithoutFramePointersReachesLibcStart)
{
	REQUIRE_BPF();
	child target({DT_USTACK_TARGET});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	// The default: no option.
	auto r = dtrace(bpf({"-p", std::to_string(target.pid), "-n",
			     "profile-997 /pid == $target/ { @[ustack()] = count(); }", "-n",
			     "tick-2s { exit(0); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	bool whole = false;
	for (const auto &s : stacks(r.out))
		whole = whole || has_in_order(s, k_chain);
	EXPECT_TRUE(whole) << r.out;
	// A key beside a string, and a record, with an explicit size too.
	auto r2 = dtrace(bpf({"-x", "ustackbytes=8k", "-p", std::to_string(target.pid), "-n",
			      "profile-997 /pid == $target/ { @[execname, ustack()] = count(); }",
			      "-n", "profile-97 /pid == $target/ { ustack(); exit(0); }"}));
	ASSERT_EQ(r2.status, 0) << r2.err;
	whole = false;
	for (const auto &s : stacks(r2.out))
		whole = whole || has_in_order(s, k_chain);
	EXPECT_TRUE(whole) << r2.out;
}

// ustack(n) as a key keeps n frames of the unwound stack (the frames below
// them do not part the entries).
TEST(UstackDwarf, UstackNKeyKeepsNFrames)
{
	REQUIRE_BPF();
	child target({DT_USTACK_TARGET});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	auto r = dtrace(bpf({"-p", std::to_string(target.pid), "-n",
			     "profile-997 /pid == $target/ { @[ustack(2)] = count(); }", "-n",
			     "tick-1s { exit(0); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	auto s = stacks(r.out);
	ASSERT_FALSE(s.empty()) << r.out;
	for (const auto &st : s) {
		EXPECT_LE(st.size(), 2u) << r.out;
		EXPECT_FALSE(has_in_order(st, {"`dt_ustack_outer"})) << r.out;
	}
}

// Keys with the default copy beside other keys keep it (the bpf engine's
// keys are at most 16 KiB); a clause's fourth ustack() walks frame pointers.
TEST(UstackDwarf, DefaultCopyStaysWithinTheEnginesLimits)
{
	REQUIRE_BPF();
	child target({DT_USTACK_TARGET});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	auto r = dtrace(bpf(
		{"-q", "-p", std::to_string(target.pid), "-n",
		 "profile-997 /pid == $target/ { @a[execname, probefunc, ustack()] = "
		 "count(); @b[ustack(), ustack(2)] = count(); }",
		 "-n",
		 "profile-97 /pid == $target/ { ustack(); ustack(); ustack(); ustack(); "
		 "exit(0); }",
		 "-n",
		 "END { printa(\"A\\n%s %s%k%@d\\n\", @a); printa(\"B\\n%k%k%@d\\n\", @b); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	auto s = stacks(r.out);
	ASSERT_GE(s.size(), 4u) << r.out;
	for (size_t i = 0; i < 3; i++)
		EXPECT_TRUE(has_in_order(s[i], k_chain)) << r.out;
	// Both aggregations' whole stacks come from the CFI: main and below.
	size_t a = r.out.find("\nA\n"), b = r.out.find("\nB\n");
	ASSERT_NE(a, std::string::npos) << r.out;
	ASSERT_NE(b, std::string::npos) << r.out;
	bool whole_a = false, whole_b = false;
	for (const auto &st : stacks(r.out.substr(a, b - a)))
		whole_a = whole_a || has_in_order(st, k_chain);
	for (const auto &st : stacks(r.out.substr(b)))
		whole_b = whole_b || has_in_order(st, k_chain);
	EXPECT_TRUE(whole_a) << r.out;
	EXPECT_TRUE(whole_b) << r.out;
	// A clause whose three records leave the buffer no room to stage a
	// capture key still loads: that key walks frame pointers.
	auto r3 = dtrace(bpf({"-q", "-p", std::to_string(target.pid), "-n",
			      "profile-997 /pid == $target/ { ustack(); ustack(); ustack(); "
			      "@[ustack()] = count(); }",
			      "-n", "tick-1s { exit(0); }"}));
	ASSERT_EQ(r3.status, 0) << r3.err;
	EXPECT_NE(r3.out.find("dt_ustack_target`dt_ustack_leaf"), std::string::npos) << r3.out;
	// An explicit size that does not fit is reported, not shrunk.
	auto r2 = dtrace(bpf({"-x", "ustackbytes=16k", "-p", std::to_string(target.pid), "-n",
			      "profile-97 /pid == $target/ { @[ustack(), ustack()] = count(); }",
			      "-n", "tick-1s { exit(0); }"}));
	EXPECT_NE(r2.status, 0) << r2.out;
	EXPECT_NE(r2.err.find("more than 16384"), std::string::npos) << r2.err;
}

// A deep stack (31 recursive frames, about 3 KiB below main) in a key: the
// default copy (4 KiB, as records take) unwinds to main and libc's start.
TEST(UstackDwarf, DeepStackKeyReachesMain)
{
	REQUIRE_BPF();
	child target({DT_USTACK_TARGET, "-r"});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	auto r = dtrace(bpf({"-p", std::to_string(target.pid), "-n",
			     "profile-997 /pid == $target/ { @[ustack()] = count(); }", "-n",
			     "tick-1s { exit(0); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	bool whole = false;
	for (const auto &st : stacks(r.out)) {
		if (!has_in_order(st, {"`dt_ustack_leaf", "`dt_ustack_recurse", "target`main",
				       k_chain.back()}))
			continue;
		size_t n = 0;
		for (const auto &f : st)
			n += f.find("`dt_ustack_recurse") != std::string::npos ? 1 : 0;
		EXPECT_EQ(n, 31u) << r.out;
		whole = true;
	}
	EXPECT_TRUE(whole) << r.out;
}

// With -x ustackbytes=0 the stacks are the frame pointer walk's: the same
// program shows no main there (what the default copy is for).
TEST(UstackDwarf, FramePointerWalkAloneDoesNotReachMain)
{
	REQUIRE_BPF();
	child target({DT_USTACK_TARGET});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	auto r = dtrace(bpf({"-x", "ustackbytes=0", "-p", std::to_string(target.pid), "-n",
			     "profile-997 /pid == $target/ { @[ustack()] = count(); }", "-n",
			     "tick-1s { exit(0); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	for (const auto &s : stacks(r.out))
		EXPECT_FALSE(has_in_order(s, k_chain)) << r.out;
}

TEST(UstackDwarf, PidEntryProbeHasEveryCaller)
{
	REQUIRE_BPF();
	child target({DT_USTACK_TARGET});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	auto r = dtrace(bpf({"-p", std::to_string(target.pid), "-n",
			     "pid$target::dt_ustack_leaf:entry { ustack(); exit(0); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	auto s = stacks(r.out);
	ASSERT_EQ(s.size(), 1u) << r.out;
	EXPECT_TRUE(has_in_order(s[0], k_chain)) << r.out;
	EXPECT_EQ(s[0].front(), "dt_ustack_target`dt_ustack_leaf") << r.out;
	// At an entry probe ucaller is the return address at the stack
	// pointer: the unwound stack's second frame.
	auto rc = dtrace(bpf({"-q", "-p", std::to_string(target.pid), "-n",
			      "pid$target::dt_ustack_leaf:entry { ufunc(ucaller); ustack(2); "
			      "exit(0); }"}));
	ASSERT_EQ(rc.status, 0) << rc.err;
	std::vector<std::string> frames;
	for (const auto &st : stacks(rc.out))
		frames.insert(frames.end(), st.begin(), st.end());
	ASSERT_EQ(frames.size(), 3u) << rc.out; // ufunc's, then ustack(2)'s
	EXPECT_EQ(frames[0], "dt_ustack_target`dt_ustack_mid") << rc.out;
	EXPECT_EQ(frames[2], "dt_ustack_target`dt_ustack_mid") << rc.out;
	// ustack(n) and ustackframes cut the unwound stack.
	auto r2 =
		dtrace(bpf({"-x", "ustackframes=2", "-p", std::to_string(target.pid), "-n",
			    "pid$target::dt_ustack_leaf:entry { ustack(); ustack(3); exit(0); }"}));
	ASSERT_EQ(r2.status, 0) << r2.err;
	auto s2 = stacks(r2.out);
	ASSERT_EQ(s2.size(), 2u) << r2.out;
	EXPECT_EQ(s2[0].size(), 2u) << r2.out;
	EXPECT_EQ(s2[1].size(), 3u) << r2.out;
	// noresolve: each frame as its object and the offset in the mapping
	// that holds it, to be resolved later; no symbol names.
	auto r3 = dtrace(bpf({"-x", "noresolve", "-p", std::to_string(target.pid), "-n",
			      "pid$target::dt_ustack_leaf:entry { ustack(); exit(0); }"}));
	ASSERT_EQ(r3.status, 0) << r3.err;
	auto s3 = stacks(r3.out);
	ASSERT_EQ(s3.size(), 1u) << r3.out;
	EXPECT_GE(s3[0].size(), k_chain.size()) << r3.out;
	EXPECT_EQ(s3[0].front().rfind("dt_ustack_target:0x", 0), 0u) << r3.out;
	EXPECT_TRUE(has_in_order(s3[0], {"dt_ustack_target:0x", "libc.so.6:0x"})) << r3.out;
	for (const auto &f : s3[0]) {
		EXPECT_EQ(f.find('`'), std::string::npos) << r3.out;
		EXPECT_NE(f.find(":0x"), std::string::npos) << r3.out;
	}
	// uaddr() and usym() the same way; umod() is the object still.
	auto r4 = dtrace(bpf({"-q", "-x", "noresolve", "-p", std::to_string(target.pid), "-n",
			      "pid$target::dt_ustack_leaf:entry { uaddr(ucaller); usym(ucaller); "
			      "umod(ucaller); exit(0); }"}));
	ASSERT_EQ(r4.status, 0) << r4.err;
	std::istringstream w4(r4.out);
	std::string a, sy, mo;
	w4 >> a >> sy >> mo;
	EXPECT_EQ(a.rfind("dt_ustack_target:0x", 0), 0u) << r4.out;
	EXPECT_EQ(sy.rfind("dt_ustack_target:0x", 0), 0u) << r4.out;
	EXPECT_EQ(mo, "dt_ustack_target") << r4.out;
}

// The maxframes option bounds every stack: ustack() and ustack(n) record
// at most that many frames and ustackdepth counts at most that many.
TEST(UstackDwarf, MaxframesBoundsStacksAndUstackdepth)
{
	REQUIRE_BPF();
	child target({DT_USTACK_TARGET});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	auto r = dtrace(
		bpf({"-x", "maxframes=2", "-p", std::to_string(target.pid), "-n",
		     "pid$target::dt_ustack_leaf:entry { ustack(); ustack(50); exit(0); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	auto s = stacks(r.out);
	ASSERT_EQ(s.size(), 2u) << r.out;
	EXPECT_EQ(s[0], (std::vector<std::string>{"dt_ustack_target`dt_ustack_leaf",
						  "dt_ustack_target`dt_ustack_mid"}))
		<< r.out;
	EXPECT_EQ(s[1], s[0]) << r.out;
	// At an entry probe the depth is at least 2 (the pc and the return
	// address); maxframes=1 makes it 1.
	const std::string d = "pid$target::dt_ustack_leaf:entry { printf(\"%d\\n\", ustackdepth); "
			      "exit(0); }";
	auto ru = dtrace(bpf({"-q", "-p", std::to_string(target.pid), "-n", d}));
	ASSERT_EQ(ru.status, 0) << ru.err;
	EXPECT_GE(std::stoi(ru.out), 2) << ru.out;
	auto rd =
		dtrace(bpf({"-q", "-x", "maxframes=1", "-p", std::to_string(target.pid), "-n", d}));
	ASSERT_EQ(rd.status, 0) << rd.err;
	EXPECT_EQ(std::stoi(rd.out), 1) << rd.out;
}

// A process that exits at once after its probe fired: its capture is
// consumed after it has gone, and still unwinds through the objects it
// had (read while it was held and running).
TEST(UstackDwarf, CaptureOfAnExitedProcessStillUnwinds)
{
	REQUIRE_BPF();
	const std::string cmd = std::string(DT_USTACK_TARGET) + " -1";
	auto r = dtrace(bpf({"-n", "pid$target::dt_ustack_leaf:entry { ustack(); }", "-c", cmd}));
	ASSERT_EQ(r.status, 0) << r.err;
	auto s = stacks(r.out);
	ASSERT_EQ(s.size(), 1u) << r.out;
	EXPECT_TRUE(has_in_order(s[0], k_chain)) << r.out;
}

TEST(UstackDwarf, DebianSleepShowsItsFramesIntoLibc)
{
	REQUIRE_BPF();
	auto r = dtrace(bpf({"-n", "syscall::clock_nanosleep:entry /pid == $target/ { ustack(); }",
			     "-c", "/usr/bin/sleep 0.1"}));
	ASSERT_EQ(r.status, 0) << r.err;
	auto s = stacks(r.out);
	ASSERT_EQ(s.size(), 1u) << r.out;
	ASSERT_GE(s[0].size(), 4u) << r.out;
	EXPECT_EQ(s[0].front().rfind("libc.so.6`", 0), 0u) << r.out;
	EXPECT_TRUE(has_in_order(s[0], {"libc.so.6`", "sleep`", "libc.so.6`"})) << r.out;
	// libc's own symbols come from its split debug info (libc6-dbg).
	if (libc_debug_info()) {
		EXPECT_TRUE(has_in_order(s[0], {"`__libc_start_call_main"})) << r.out;
	}
}

} // namespace
