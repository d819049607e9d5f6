// SPDX-License-Identifier: MIT
// The consumer's side of speculations (core/engine/bpf/spec_buffer.hpp):
// firings held per (id, generation) until commit() or discard(), specsize
// per CPU, late firings of an ended generation, and the dt_spec map.
#include "spec_buffer.hpp"

#include <dtrace/engine.hpp>

#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <unistd.h>

extern "C" {
#include "abi/dt_bpf_abi.h"
}

#include <cstring>

namespace {

using dt::engines::bpf::spec_buffer;
using fb = spec_buffer::firing_bytes;

fb firing(uint32_t cpu, uint8_t tag, size_t size = 16)
{
	fb f;
	f.cpu = cpu;
	f.bytes.assign(size, tag);
	return f;
}

std::vector<uint8_t> tags(const std::vector<fb> &v)
{
	std::vector<uint8_t> t;
	for (const fb &f : v)
		t.push_back(f.bytes.empty() ? 0 : f.bytes[0]);
	return t;
}

TEST(bpf_spec_buffer, held_until_commit_then_released_in_order)
{
	spec_buffer b;
	std::vector<fb> out;
	b.firing(1, 1, firing(0, 'a'), out);
	b.firing(1, 1, firing(1, 'b'), out);
	b.firing(1, 1, firing(0, 'c'), out);
	EXPECT_TRUE(out.empty());
	b.end(1, 1, true, out);
	ASSERT_EQ(tags(out), (std::vector<uint8_t>{'a', 'b', 'c'}));
	EXPECT_EQ(out[1].cpu, 1U);
	EXPECT_TRUE(b.take_drops().empty());
}

TEST(bpf_spec_buffer, discard_drops_without_counting)
{
	spec_buffer b;
	std::vector<fb> out;
	b.firing(2, 5, firing(0, 'a'), out);
	b.end(2, 5, false, out);
	EXPECT_TRUE(out.empty());
	EXPECT_TRUE(b.take_drops().empty());
	// The id's next generation starts empty.
	b.firing(2, 7, firing(0, 'b'), out);
	b.end(2, 7, true, out);
	EXPECT_EQ(tags(out), (std::vector<uint8_t>{'b'}));
}

TEST(bpf_spec_buffer, late_firings_follow_their_generations_outcome)
{
	spec_buffer b;
	std::vector<fb> out;
	b.end(1, 3, true, out);
	b.end(2, 3, false, out);
	b.firing(1, 3, firing(1, 'x'), out); // written on CPU 1 while it ended
	b.firing(2, 3, firing(1, 'y'), out);
	EXPECT_EQ(tags(out), (std::vector<uint8_t>{'x'}));
}

TEST(bpf_spec_buffer, generations_of_one_id_are_kept_apart)
{
	spec_buffer b;
	std::vector<fb> out;
	// Generation 1's end comes after a firing of generation 3 (the id was
	// ended and taken again before the end sample reached the ring).
	b.firing(1, 1, firing(0, 'a'), out);
	b.firing(1, 3, firing(1, 'b'), out);
	b.end(1, 1, true, out);
	EXPECT_EQ(tags(out), (std::vector<uint8_t>{'a'}));
	out.clear();
	b.end(1, 3, true, out);
	EXPECT_EQ(tags(out), (std::vector<uint8_t>{'b'}));
}

TEST(bpf_spec_buffer, specsize_is_per_cpu_and_excess_is_counted)
{
	spec_buffer b(40);
	std::vector<fb> out;
	for (uint8_t i = 0; i < 4; i++)
		b.firing(1, 1, firing(0, static_cast<uint8_t>('a' + i)), out); // 16 bytes each
	b.firing(1, 1, firing(3, 'z'), out);
	auto d = b.take_drops();
	EXPECT_EQ(d[0], 2U);
	EXPECT_EQ(d.count(3), 0U);
	b.end(1, 1, true, out);
	EXPECT_EQ(tags(out), (std::vector<uint8_t>{'a', 'b', 'z'}));
	EXPECT_TRUE(b.take_drops().empty());
}

TEST(bpf_spec_buffer, generations_waiting_per_id_are_bounded)
{
	spec_buffer b;
	std::vector<fb> out;
	const uint32_t n = spec_buffer::k_max_gens + 3;
	for (uint32_t g = 1; g <= n; g++)
		b.firing(4, 2 * g - 1, firing(0, static_cast<uint8_t>(g)), out);
	// The oldest were given up; the newest k_max_gens still wait.
	b.end(4, 1, true, out);
	EXPECT_TRUE(out.empty());
	b.end(4, 2 * n - 1, true, out);
	EXPECT_EQ(tags(out), (std::vector<uint8_t>{static_cast<uint8_t>(n)}));
}

TEST(bpf_spec_buffer, spec_map_holds_nspec_and_counts_nothing_yet)
{
	if (geteuid() != 0)
		GTEST_SKIP() << "bpf() needs root";
	auto fd = dt::engines::bpf::create_spec_map(3, true);
	dt_bpf_spec e{};
	uint32_t k = 0;
	ASSERT_EQ(bpf_map_lookup_elem(fd.get(), &k, &e), 0);
	EXPECT_EQ(e.state, 3U);
	EXPECT_EQ(dt::engines::bpf::spec_unavailable(fd.get()), 0U);
	k = 3;
	ASSERT_EQ(bpf_map_lookup_elem(fd.get(), &k, &e), 0);
	EXPECT_EQ(e.state, 0U); // inactive
	k = 4;
	EXPECT_NE(bpf_map_lookup_elem(fd.get(), &k, &e), 0);
	EXPECT_THROW((void)dt::engines::bpf::create_spec_map(DT_BPF_NSPEC_MAX + 1, true),
		     dt::engine_error);
	EXPECT_NO_THROW((void)dt::engines::bpf::create_spec_map(DT_BPF_NSPEC_MAX + 1, false));
}

} // namespace
