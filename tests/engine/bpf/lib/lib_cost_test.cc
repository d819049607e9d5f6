// SPDX-License-Identifier: MIT
//
// lib_cost_test.cc - what each library function costs the kernel's
// verifier. Static subprograms are verified again at every call, and a
// program may process at most 1M instructions, so a translated clause can
// afford only a few expensive calls. Each wrapper of lib_test.bpf.o (one
// library call, strsize as the translator passes it: a constant, 256 in
// t_* and k_*, 1024, the largest the byte-at-a-time functions accept, in
// k1024_*, 4097, the largest the engine accepts, in k4097_*) is loaded
// alone and the verifier's "processed N insns" is reported. It asserts
// nothing about time, only that no single call exceeds 200K instructions
// at the default strsize, nor 300K at strsize 1024 or 4097 (the string loops
// scale with strsize; cleanpath is the one above 200K there): a
// regression guard, the printed table has the measured costs.
#include "lib_fixture.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace {

using namespace bpflib_test;

constexpr long kMaxPerCall = 200000;	 // strsize 256
constexpr long kMaxPerCall1024 = 300000; // strsize 1024 (k1024_*)

// Load program name of the test object alone; the verifier's count, or -1.
long verified_insns(const char *name, std::string &err)
{
	static std::vector<char> log(4 << 20);
	bpf_object *o = bpf_object__open_file(DT_BPF_LIB_TEST_OBJ, nullptr);
	if (!o) {
		err = "cannot open " DT_BPF_LIB_TEST_OBJ;
		return -1;
	}
	bpf_map__set_max_entries(bpf_object__find_map_by_name(o, "dt_mem"),
				 libbpf_num_possible_cpus());
	bpf_program *p;
	bpf_object__for_each_program(p, o)
		bpf_program__set_autoload(p, std::strcmp(bpf_program__name(p), name) == 0);
	p = bpf_object__find_program_by_name(o, name);
	log[0] = 0;
	bpf_program__set_log_buf(p, log.data(), log.size());
	bpf_program__set_log_level(p, 4); // statistics only
	int e = bpf_object__load(o);
	long n = -1;
	if (const char *s = std::strstr(log.data(), "processed "))
		n = std::strtol(s + 10, nullptr, 10);
	if (e)
		err = std::string("load failed: ") + strerror(-e);
	bpf_object__close(o);
	return n;
}

TEST(BpfLibCost, EveryCallVerifiesCheaply)
{
	NEED_LIB();
	std::vector<std::string> names;
	bpf_program *p;
	bpf_object__for_each_program(p, L().obj)
		names.emplace_back(bpf_program__name(p));
	ASSERT_GT(names.size(), 40u);
	std::map<std::string, long> cost;
	for (const std::string &n : names) {
		std::string err;
		long c = verified_insns(n.c_str(), err);
		EXPECT_TRUE(err.empty()) << n << ": " << err;
		EXPECT_GT(c, 0) << n;
		bool big = n.rfind("k1024_", 0) == 0 || n.rfind("k4097_", 0) == 0;
		EXPECT_LT(c, big ? kMaxPerCall1024 : kMaxPerCall)
			<< n << " is too costly for the verifier";
		cost[n] = c;
	}
	std::vector<std::pair<long, std::string>> by;
	for (auto &[n, c] : cost)
		by.emplace_back(c, n);
	std::sort(by.rbegin(), by.rend());
	std::printf("verifier instructions processed per wrapper (one library call):\n");
	for (auto &[c, n] : by)
		std::printf("  %-18s %8ld\n", n.c_str(), c);
}

} // namespace
