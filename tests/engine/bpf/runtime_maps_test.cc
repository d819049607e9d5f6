// SPDX-License-Identifier: MIT
// The bpf engine's maps (core/engine/bpf/maps.hpp) on this kernel: sizes
// from a layout, initial contents, and the small accessors the engine
// uses (activity, drop counters, probe names, EPID tables).
#include "runtime_support.hpp"

#include "maps.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>

namespace {

using namespace dt::engines::bpf;
using namespace dt::test::bpf;

class maps_test : public ::testing::Test {
protected:
	void SetUp() override
	{
		if (std::string why = bpf_unusable(); !why.empty())
			GTEST_SKIP() << "bpf() is not usable here: " << why;
	}
};

TEST(ring_size, rounds_bufsize_up_to_a_power_of_two_of_at_least_a_page)
{
	auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
	EXPECT_EQ(ring_size(1), page);
	EXPECT_EQ(ring_size(4 << 20), uint64_t{4} << 20);
	EXPECT_EQ(ring_size((4 << 20) + 1), uint64_t{8} << 20);
	EXPECT_EQ(ring_size(3 * page), 4 * page);
}

TEST_F(maps_test, created_from_the_layout_with_their_initial_contents)
{
	layout l;
	l.strtab = std::string("hello\0world\0", 12);
	l.globals_size = 64;
	l.aggs.push_back({16, 8 * 127, 100});
	engine_maps m = create_maps(l, 3, ring_size(1 << 16));
	EXPECT_GE(m.ncpus, 1U);
	map_fds f = m.fds();
	for (int fd :
	     {f.mem, f.status, f.cpustate, f.ring, f.probes, f.strtab, f.globals, f.tls, f.dvars})
		EXPECT_GE(fd, 0);
	ASSERT_EQ(f.aggs.size(), 1U);
	EXPECT_EQ(m.agg_stores.size(), 1U); // one map per aggregation unless prefixed

	struct bpf_map_info info {};
	uint32_t len = sizeof(info);
	ASSERT_EQ(bpf_obj_get_info_by_fd(f.mem, &info, &len), 0);
	EXPECT_EQ(info.max_entries, m.ncpus);
	EXPECT_EQ(info.value_size, sizeof(dt_bpf_mem));
	len = sizeof(info);
	ASSERT_EQ(bpf_obj_get_info_by_fd(f.aggs[0], &info, &len), 0);
	EXPECT_EQ(info.type, BPF_MAP_TYPE_PERCPU_HASH);
	EXPECT_EQ(info.key_size, 16U);
	EXPECT_EQ(info.value_size, 8U * 127);
	EXPECT_STREQ(info.name, "dt_agg_1");
	len = sizeof(info);
	ASSERT_EQ(bpf_obj_get_info_by_fd(f.probes, &info, &len), 0);
	EXPECT_EQ(info.max_entries, 4U); // EPIDs 1-3 and the unused 0

	std::vector<char> strtab(DT_BPF_STRTAB_SIZE, 'x');
	uint32_t zero = 0;
	ASSERT_EQ(bpf_map_lookup_elem(f.strtab, &zero, strtab.data()), 0);
	EXPECT_EQ(std::memcmp(strtab.data(), "hello\0world\0", 12), 0);
	EXPECT_EQ(strtab[12], '\0');

	EXPECT_EQ(activity(m), uint64_t{DT_BPF_INACTIVE});
	set_activity(m, DT_BPF_DRAINING);
	EXPECT_EQ(activity(m), uint64_t{DT_BPF_DRAINING});

	auto cs = cpustates(m);
	ASSERT_EQ(cs.size(), m.ncpus);
	for (const dt_bpf_cpustate &c : cs)
		EXPECT_EQ(c.drops + c.agg_drops + c.dyn_drops + c.spec_drops, 0U);
}

TEST_F(maps_test, probe_names_by_epid)
{
	layout l;
	engine_maps m = create_maps(l, 2, ring_size(1 << 16));
	dt::enabled_probe ep;
	ep.epid = 2;
	ep.probe_id = 77;
	ep.probe = {"syscall", "vmlinux", "openat", "entry"};
	set_probe(m, 2, ep);
	dt_bpf_probe p{};
	uint32_t key = 2;
	ASSERT_EQ(bpf_map_lookup_elem(m.probes.get(), &key, &p), 0);
	EXPECT_STREQ(p.prov, "syscall");
	EXPECT_STREQ(p.mod, "vmlinux");
	EXPECT_STREQ(p.func, "openat");
	EXPECT_STREQ(p.name, "entry");
	EXPECT_EQ(p.id, 77U);
}

TEST_F(maps_test, epid_tables_map_a_filter_to_an_epid_and_the_rest_to_zero)
{
	layout l;
	engine_maps m = create_maps(l, 9, ring_size(1 << 16));
	int fd = create_epid_table(m, 10);
	set_epid(fd, 3, 7);
	uint32_t k = 3, v = 0;
	ASSERT_EQ(bpf_map_lookup_elem(fd, &k, &v), 0);
	EXPECT_EQ(v, 7U);
	k = 4;
	ASSERT_EQ(bpf_map_lookup_elem(fd, &k, &v), 0);
	EXPECT_EQ(v, 0U);
	k = 10; // past the table
	EXPECT_NE(bpf_map_lookup_elem(fd, &k, &v), 0);
	EXPECT_EQ(m.epid_tables.size(), 1U);
}

} // namespace
