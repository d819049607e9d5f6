// SPDX-License-Identifier: MIT
//
// folded_test.cc - -x stackfmt=folded (docs/json.md, "Folded stacks") over
// aggregation data built by hand: keys that are not stacks first, then
// the user stack, then the kernel stack, each root first, whatever the
// order of the keys; one line per distinct stack, values added, lines
// sorted; aggregations without a stack key, or quantizations, keep their
// text tables. The addresses resolve to nothing, so frames print as
// DTrace prints an unknown address (0x...).
#include "harness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace dt;
using namespace dt::test;
using k = value_type::kind;

value_type stack_of(k kind, uint32_t size)
{
	value_type t;
	t.k = kind;
	t.size = size;
	return t;
}

// Kernel frames, leaf first, 0-terminated in 4 slots.
std::vector<uint64_t> kstack(std::initializer_list<uint64_t> pcs)
{
	std::vector<uint64_t> v(pcs);
	v.resize(4, 0);
	return v;
}

// A user stack: the pid, then 3 frames, leaf first.
std::vector<uint64_t> ustack(std::initializer_list<uint64_t> pcs)
{
	std::vector<uint64_t> v{0};
	v.insert(v.end(), pcs);
	v.resize(4, 0);
	return v;
}

std::vector<uint8_t> bytes_of(const std::vector<uint64_t> &v)
{
	std::vector<uint8_t> b(v.size() * 8);
	std::memcpy(b.data(), v.data(), b.size());
	return b;
}

struct folded_fixture {
	program prog;
	capture out, err;
	std::unique_ptr<consumer> c;

	void start()
	{
		prog.options["stackfmt"] = "folded";
		clause_builder cb;
		prog.clauses.push_back(cb.done());
		consumer_settings s;
		s.out = out.file();
		s.err = err.file();
		s.quiet = true;
		c = std::make_unique<consumer>(prog, std::vector<enabled_probe>{begin_probe()}, s);
	}
	void put(uint32_t id, std::vector<uint8_t> key, int64_t v)
	{
		agg_data d;
		d.aggid = id;
		d.key = std::move(key);
		d.value = {v};
		c->aggregation(d);
	}
};

std::vector<uint8_t> key(const std::string &name, const std::vector<uint64_t> &first,
			 const std::vector<uint64_t> &second)
{
	auto kb = key_builder().add_str(name, 16).k;
	auto a = bytes_of(first), b = bytes_of(second);
	kb.insert(kb.end(), a.begin(), a.end());
	kb.insert(kb.end(), b.begin(), b.end());
	return kb;
}

TEST(Folded, KeyThenUserThenKernelRootFirstWhateverTheKeyOrder)
{
	folded_fixture f;
	// @ks[execname, stack(), ustack()] and @us[execname, ustack(), stack()]
	f.prog.aggregations.push_back(
		make_agg(1, "ks", DTRACEAGG_COUNT,
			 {string_type(16), stack_of(k::stack, 32), stack_of(k::ustack, 32)}));
	f.prog.aggregations.push_back(
		make_agg(2, "us", DTRACEAGG_SUM,
			 {string_type(16), stack_of(k::ustack, 32), stack_of(k::stack, 32)}));
	f.start();
	auto ks = kstack({0x7a01, 0x7a02, 0x7a03});
	auto us = ustack({0x1001, 0x1002, 0x1003});
	auto us2 = ustack({0x1009, 0x1003});
	f.put(1, key("sh", ks, us), 4);
	f.put(1, key("sh", ks, us2), 1);
	f.put(1, key("awk", ks, us), 2);
	f.put(2, key("sh", us, ks), 40);
	f.c->finish();
	const std::string kernel = "0x7a03;0x7a02;0x7a01";
	EXPECT_EQ(f.out.text(), "awk;0x1003;0x1002;0x1001;" + kernel + " 2\n" +
					"sh;0x1003;0x1002;0x1001;" + kernel + " 4\n" +
					"sh;0x1003;0x1009;" + kernel + " 1\n" +
					"sh;0x1003;0x1002;0x1001;" + kernel + " 40\n");
	EXPECT_EQ(f.err.text(), "");
}

// An aggregation without a stack key prints as text, in its place.
TEST(Folded, OtherAggregationsKeepTheirTables)
{
	folded_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "n", DTRACEAGG_COUNT, {string_type(16)}));
	f.prog.aggregations.push_back(make_agg(2, "s", DTRACEAGG_COUNT, {stack_of(k::stack, 32)}));
	f.start();
	f.put(1, key_builder().add_str("sh", 16).k, 3);
	f.put(2, bytes_of(kstack({0x7a01})), 5);
	f.c->finish();
	// "  %-50s" then " %16lld" as text mode prints them; the folded line
	// after it, in aggregation order.
	EXPECT_EQ(f.out.text(),
		  "  sh" + std::string(48, ' ') + std::string(16, ' ') + "3\n" + "0x7a01 5\n");
}

} // namespace
