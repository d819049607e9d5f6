// SPDX-License-Identifier: MIT
// The bpf engine's principal buffer (core/engine/bpf/ring.hpp) on this
// kernel: tiny programs write dt_bpf_abi.h samples into a real dt_ring,
// run in the kernel with BPF_PROG_TEST_RUN on one CPU; the reader must
// deliver them as firings, faults and drops.
#include "runtime_support.hpp"

#include "attach.hpp"
#include "maps.hpp"
#include "ring.hpp"

#include <gtest/gtest.h>

#include <sched.h>

#include <cstring>

namespace {

using namespace dt::engines::bpf;
using namespace dt::test::bpf;

// A program that outputs {cpu, words...} to the ring, then returns 0.
std::vector<bpf_insn> emitter(int ring_fd, const std::vector<uint32_t> &words)
{
	std::vector<bpf_insn> v;
	int16_t total = static_cast<int16_t>(4 * (words.size() + 1));
	int16_t base = static_cast<int16_t>(-((total + 7) & ~7));
	v.push_back(call(BPF_FUNC_get_smp_processor_id));
	v.push_back(stx_w(BPF_REG_10, BPF_REG_0, base));
	for (size_t i = 0; i < words.size(); i++)
		v.push_back(st_w(BPF_REG_10, static_cast<int16_t>(base + 4 * (i + 1)),
				 static_cast<int32_t>(words[i])));
	ld_map_fd(v, BPF_REG_1, ring_fd);
	v.push_back(mov64_reg(BPF_REG_2, BPF_REG_10));
	v.push_back(add64_imm(BPF_REG_2, base));
	v.push_back(mov64_imm(BPF_REG_3, total));
	v.push_back(mov64_imm(BPF_REG_4, 0));
	v.push_back(call(BPF_FUNC_ringbuf_output));
	v.push_back(mov64_imm(BPF_REG_0, 0));
	v.push_back(exit_insn());
	return v;
}

std::vector<uint32_t> firing(uint32_t epid, uint32_t payload)
{
	return {DT_BPF_SAMPLE_FIRING, epid, 0x11, 0x22, payload, 0};
}

std::vector<uint32_t> fault(uint32_t epid, uint32_t action, uint32_t code, uint32_t illval)
{
	// dt_bpf_fault_sample: epid, action, offset (-1), code, illval
	return {DT_BPF_SAMPLE_FAULT, epid, action, 0xffffffff, 0xffffffff, code, 0, illval, 0};
}

class ring_test : public ::testing::Test {
protected:
	void SetUp() override
	{
		if (std::string why = bpf_unusable(); !why.empty())
			GTEST_SKIP() << "bpf() is not usable here: " << why;
		layout l;
		maps_ = create_maps(l, 8, ring_size(64 << 10));
		cpu_ = static_cast<uint32_t>(std::max(sched_getcpu(), 0));
	}

	// Emit one sample from the kernel, on our CPU.
	void emit(const std::vector<uint32_t> &words)
	{
		std::string log;
		unique_fd p(
			load(BPF_PROG_TYPE_RAW_TRACEPOINT, emitter(maps_.ring.get(), words), &log));
		ASSERT_TRUE(p) << log;
		run_on_cpu(p.get(), cpu_);
	}

	engine_maps maps_;
	uint32_t cpu_ = 0;
};

TEST_F(ring_test, firing_reaches_the_sink_as_its_bytes_on_its_cpu)
{
	ring_reader r(maps_.ring.get(), 1 << 20, nullptr);
	emit(firing(3, 0xdeadbeef));
	EXPECT_EQ(r.collect(), 1);
	recording_sink s;
	r.deliver(s);
	ASSERT_EQ(s.events.size(), 1U);
	EXPECT_EQ(s.events[0].kind, 'r');
	EXPECT_EQ(s.events[0].cpu, cpu_);
	std::vector<uint32_t> want = {3, 0x11, 0x22, 0xdeadbeef, 0};
	ASSERT_EQ(s.events[0].bytes.size(), want.size() * 4);
	EXPECT_EQ(std::memcmp(s.events[0].bytes.data(), want.data(), want.size() * 4), 0);
	EXPECT_EQ(r.malformed(), 0U);
	// Delivered once.
	recording_sink again;
	r.deliver(again);
	EXPECT_TRUE(again.events.empty());
}

TEST_F(ring_test, fault_comes_after_the_error_firings_that_follow_it)
{
	ring_reader r(maps_.ring.get(), 1 << 20, [](uint32_t epid) { return epid == 7; });
	emit(firing(1, 10));
	emit(fault(5, 2, DTRACEFLT_BADADDR, 0x40));
	emit(firing(7, 20)); // dtrace:::ERROR's clause
	emit(firing(3, 30)); // the next firing: the fault goes out before it
	EXPECT_EQ(r.collect(), 4);
	recording_sink s;
	r.deliver(s);
	ASSERT_EQ(s.events.size(), 4U);
	EXPECT_EQ(s.events[0].kind, 'r');
	EXPECT_EQ(s.events[1].kind, 'r');
	EXPECT_EQ(s.events[2].kind, 'f');
	EXPECT_EQ(s.events[3].kind, 'r');
	uint32_t e1 = 0, e3 = 0;
	std::memcpy(&e1, s.events[1].bytes.data(), 4);
	std::memcpy(&e3, s.events[3].bytes.data(), 4);
	EXPECT_EQ(e1, 7U);
	EXPECT_EQ(e3, 3U);
	const dt::fault_report &f = s.events[2].fault;
	EXPECT_EQ(f.epid, 5U);
	EXPECT_EQ(f.action, 2U);
	EXPECT_EQ(f.offset, -1);
	EXPECT_EQ(f.code, DTRACEFLT_BADADDR);
	EXPECT_EQ(f.illval, 0x40U);
}

TEST_F(ring_test, fault_last_in_the_ring_is_still_delivered)
{
	ring_reader r(maps_.ring.get(), 1 << 20, [](uint32_t) { return true; });
	emit(fault(2, 0, DTRACEFLT_DIVZERO, 0));
	recording_sink s;
	(void)r.collect();
	r.deliver(s);
	ASSERT_EQ(s.events.size(), 1U);
	EXPECT_EQ(s.events[0].kind, 'f');
	EXPECT_EQ(s.events[0].fault.code, DTRACEFLT_DIVZERO);
}

TEST_F(ring_test, firings_beyond_bufsize_are_principal_drops_of_their_cpu)
{
	// Room for one 20-byte firing, not two.
	ring_reader r(maps_.ring.get(), 30, nullptr);
	for (uint32_t i = 0; i < 3; i++)
		emit(firing(1, i));
	(void)r.collect();
	auto drops = r.take_drops();
	EXPECT_EQ(drops[cpu_], 2U);
	recording_sink s;
	r.deliver(s);
	EXPECT_EQ(s.events.size(), 1U);
	// Room again after the drain.
	emit(firing(1, 9));
	(void)r.collect();
	EXPECT_TRUE(r.take_drops().empty());
}

TEST_F(ring_test, unknown_sample_kinds_are_counted_not_delivered)
{
	ring_reader r(maps_.ring.get(), 1 << 20, nullptr);
	emit({99, 1, 2});
	(void)r.collect();
	recording_sink s;
	r.deliver(s);
	EXPECT_TRUE(s.events.empty());
	EXPECT_EQ(r.malformed(), 1U);
}

} // namespace
