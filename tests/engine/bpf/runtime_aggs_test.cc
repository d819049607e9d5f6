// SPDX-License-Identifier: MIT
// Aggregations out of per-CPU hash maps (core/engine/bpf/aggs.hpp): the
// fold of every CPU's words per function, a real map drained into deltas
// by generation (and emptied of what was read), the grace-period wait.
#include "runtime_support.hpp"

#include "aggs.hpp"
#include "maps.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

namespace {

using namespace dt::engines::bpf;
using namespace dt::test::bpf;

dt::aggregation agg(uint16_t func, uint32_t nwords, uint32_t key_size = 8)
{
	dt::aggregation a;
	a.id = 1;
	a.name = "a";
	a.func = func;
	a.nwords = nwords;
	a.key_size = key_size;
	return a;
}

// Per-CPU words as the kernel hands them over (stride 8 * n).
std::vector<uint8_t> percpu(const std::vector<std::vector<int64_t>> &cpus)
{
	std::vector<uint8_t> out;
	for (const auto &c : cpus) {
		const auto *p = reinterpret_cast<const uint8_t *>(c.data());
		out.insert(out.end(), p, p + c.size() * 8);
	}
	return out;
}

int64_t enc(uint16_t func, int64_t v)
{
	uint64_t bias = func == DTRACEAGG_MIN ? DT_BPF_AGG_MIN_BIAS : DT_BPF_AGG_MAX_BIAS;
	return static_cast<int64_t>(static_cast<uint64_t>(v) ^ bias);
}

TEST(fold_percpu, count_and_sum_add_every_cpu)
{
	auto a = agg(DTRACEAGG_COUNT, 1);
	auto v = percpu({{3}, {0}, {4}});
	EXPECT_EQ(fold_percpu(a, v, 3, 8), std::vector<int64_t>{7});
	auto s = agg(DTRACEAGG_SUM, 1);
	auto w = percpu({{-5}, {12}});
	EXPECT_EQ(fold_percpu(s, w, 2, 8), std::vector<int64_t>{7});
}

TEST(fold_percpu, min_and_max_ignore_cpus_that_never_saw_the_key)
{
	auto mn = agg(DTRACEAGG_MIN, 1);
	auto v = percpu({{enc(DTRACEAGG_MIN, 5)}, {0}, {enc(DTRACEAGG_MIN, 9)}});
	EXPECT_EQ(fold_percpu(mn, v, 3, 8), std::vector<int64_t>{5});
	// A real zero is a value.
	auto z = percpu({{enc(DTRACEAGG_MIN, 0)}, {0}});
	EXPECT_EQ(fold_percpu(mn, z, 2, 8), std::vector<int64_t>{0});
	auto mx = agg(DTRACEAGG_MAX, 1);
	auto w = percpu({{0}, {enc(DTRACEAGG_MAX, -3)}, {enc(DTRACEAGG_MAX, -8)}});
	EXPECT_EQ(fold_percpu(mx, w, 3, 8), std::vector<int64_t>{-3});
}

TEST(fold_percpu, stddev_carries_into_the_high_word_of_the_squares)
{
	auto a = agg(DTRACEAGG_STDDEV, 4);
	auto v = percpu({{1, 10, -1, 0}, {2, 20, 1, 0}});
	auto r = fold_percpu(a, v, 2, 32);
	EXPECT_EQ(r, (std::vector<int64_t>{3, 30, 0, 1}));
}

TEST(fold_percpu, quantize_adds_bucket_by_bucket)
{
	auto a = agg(DTRACEAGG_QUANTIZE, DTRACE_QUANTIZE_NBUCKETS);
	std::vector<int64_t> c0(DTRACE_QUANTIZE_NBUCKETS, 0), c1 = c0;
	c0[DTRACE_QUANTIZE_ZEROBUCKET + 1] = 2;
	c1[DTRACE_QUANTIZE_ZEROBUCKET + 1] = 3;
	c1[0] = 1;
	auto r = fold_percpu(a, percpu({c0, c1}), 2, 8 * DTRACE_QUANTIZE_NBUCKETS);
	EXPECT_EQ(r[DTRACE_QUANTIZE_ZEROBUCKET + 1], 5);
	EXPECT_EQ(r[0], 1);
}

TEST(drain_aggregation, delivers_older_generations_and_deletes_them)
{
	if (std::string why = bpf_unusable(); !why.empty())
		GTEST_SKIP() << "bpf() is not usable here: " << why;
	layout l;
	l.aggs.push_back({24, 16, 64}); // {aggid, generation}, a key of 12 bytes
	engine_maps m = create_maps(l, 1, ring_size(1 << 16));
	ASSERT_TRUE(m.agg_gen);
	int fd = m.aggs[0];
	std::vector<dt::aggregation> aggs{agg(DTRACEAGG_AVG, 2, 12)};
	agg_map_view view{fd, 24, 16};

	// Keys 1 and 2 in generation 3 (read now), key 3 in generation 4
	// (programs may still update it); every CPU's value set from here
	// (count, total).
	for (int64_t k = 1; k <= 3; k++) {
		uint8_t key[24] = {};
		uint32_t id = 1, gen = k < 3 ? 3 : 4;
		std::memcpy(key, &id, 4);
		std::memcpy(key + 4, &gen, 4);
		std::memcpy(key + 8, &k, 8);
		std::vector<int64_t> vals;
		for (uint32_t c = 0; c < m.ncpus; c++) {
			vals.push_back(1);
			vals.push_back(k * 10);
		}
		ASSERT_EQ(bpf_map_update_elem(fd, key, vals.data(), BPF_ANY), 0);
	}
	recording_sink s;
	EXPECT_EQ(drain_aggregation(view, aggs, m.ncpus, s, 4U), 2U);
	ASSERT_EQ(s.aggs.size(), 2U);
	for (const dt::agg_data &d : s.aggs) {
		EXPECT_EQ(d.aggid, 1U);
		ASSERT_EQ(d.key.size(), 12U); // trimmed to aggregation::key_size
		int64_t k = 0;
		std::memcpy(&k, d.key.data(), 8);
		EXPECT_TRUE(k == 1 || k == 2) << k;
		EXPECT_EQ(d.value, (std::vector<int64_t>{int64_t{m.ncpus}, k * 10 * m.ncpus}));
	}
	// Generation 4's key is still there, alone; with no generation kept
	// (stopped), it goes too.
	uint8_t next[24];
	ASSERT_EQ(bpf_map_get_next_key(fd, nullptr, next), 0);
	uint32_t gen = 0;
	std::memcpy(&gen, next + 4, 4);
	EXPECT_EQ(gen, 4U);
	recording_sink again;
	EXPECT_EQ(drain_aggregation(view, aggs, m.ncpus, again, std::nullopt), 1U);
	EXPECT_NE(bpf_map_get_next_key(fd, nullptr, next), 0); // empty now
}

TEST(program_barrier, waits_and_can_wait_again)
{
	if (std::string why = bpf_unusable(); !why.empty())
		GTEST_SKIP() << "bpf() is not usable here: " << why;
	program_barrier b;
	EXPECT_NO_THROW(b.wait());
	EXPECT_NO_THROW(b.wait());
}

TEST(drain_aggregation, a_shared_map_splits_by_the_aggid_prefix)
{
	if (std::string why = bpf_unusable(); !why.empty())
		GTEST_SKIP() << "bpf() is not usable here: " << why;
	// 100 quantize() aggregations: one map, not 100 (a program may use
	// at most 64), and a count() of the same key size in another.
	layout l;
	l.agg_key_prefixed = true;
	std::vector<dt::aggregation> aggs;
	for (uint32_t i = 1; i <= 100; i++) {
		l.aggs.push_back({16, 8 * DTRACE_QUANTIZE_NBUCKETS, 10});
		auto a = agg(DTRACEAGG_QUANTIZE, DTRACE_QUANTIZE_NBUCKETS, 8);
		a.id = i;
		aggs.push_back(a);
	}
	l.aggs.push_back({16, 8, 10});
	auto c = agg(DTRACEAGG_COUNT, 1, 8);
	c.id = 101;
	aggs.push_back(c);
	engine_maps m = create_maps(l, 1, ring_size(1 << 16));
	ASSERT_EQ(m.agg_stores.size(), 2U);
	EXPECT_EQ(m.agg_stores[0].aggids.size(), 100U);
	ASSERT_EQ(m.aggs.size(), 101U);
	EXPECT_EQ(m.aggs[0], m.aggs[99]);
	EXPECT_NE(m.aggs[0], m.aggs[100]);
	struct bpf_map_info info {};
	uint32_t len = sizeof(info);
	ASSERT_EQ(bpf_obj_get_info_by_fd(m.aggs[0], &info, &len), 0);
	EXPECT_EQ(info.max_entries, 1000U);

	// @q7[42] and @q99[42]: same key bytes, different aggregations.
	for (uint32_t id : {7U, 99U}) {
		uint8_t key[16] = {};
		std::memcpy(key, &id, 4);
		int64_t k = 42;
		std::memcpy(key + 8, &k, 8);
		std::vector<int64_t> vals(size_t{m.ncpus} * DTRACE_QUANTIZE_NBUCKETS, 0);
		vals[DTRACE_QUANTIZE_ZEROBUCKET + id % 5] = id;
		ASSERT_EQ(bpf_map_update_elem(m.aggs[0], key, vals.data(), BPF_ANY), 0);
	}
	recording_sink s;
	const engine_maps::agg_store &st = m.agg_stores[0];
	agg_map_view v{st.fd.get(), st.key_size, st.value_size};
	EXPECT_EQ(drain_aggregation(v, aggs, m.ncpus, s, std::nullopt), 2U);
	ASSERT_EQ(s.aggs.size(), 2U);
	for (const dt::agg_data &d : s.aggs) {
		ASSERT_TRUE(d.aggid == 7 || d.aggid == 99) << d.aggid;
		ASSERT_EQ(d.key.size(), 8U);
		int64_t k = 0;
		std::memcpy(&k, d.key.data(), 8);
		EXPECT_EQ(k, 42);
		ASSERT_EQ(d.value.size(), size_t{DTRACE_QUANTIZE_NBUCKETS});
		EXPECT_EQ(d.value[DTRACE_QUANTIZE_ZEROBUCKET + d.aggid % 5], int64_t{d.aggid});
	}
}

} // namespace
