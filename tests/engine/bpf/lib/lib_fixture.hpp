// SPDX-License-Identifier: MIT
//
// lib_fixture.hpp - the BPF library test object (lib_test.bpf.o, raw_tp
// wrappers built at build time) loaded once with libbpf for the test files
// of tests/engine/bpf/lib: run a wrapper with BPF_PROG_TEST_RUN on CPU 0,
// read dt_mem back, place strings in dt_strtab / dt_globals.
#pragma once

#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sched.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

extern "C" {
#include "../../../../core/engine/bpf/abi/dt_bpf_abi.h"
}
#include <uapi/dtrace/dif.h>

namespace bpflib_test {

constexpr uint64_t STRTAB = DT_BPF_TAG_STRTAB;
constexpr uint64_t SCRATCH = DT_BPF_TAG_SCRATCH;

struct lib {
	bpf_object *obj = nullptr;
	std::string why;
	int mem_fd = -1, strtab_fd = -1, globals_fd = -1, ring_fd = -1, cpu_fd = -1, status_fd = -1;
	uint64_t kbase = 0; // kernel address of dt_globals' value
	std::vector<uint8_t> memv = std::vector<uint8_t>(sizeof(dt_bpf_mem));

	lib()
	{
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
		obj = bpf_object__open_file(DT_BPF_LIB_TEST_OBJ, nullptr);
		if (!obj) {
			why = "cannot open " DT_BPF_LIB_TEST_OBJ;
			return;
		}
		bpf_map__set_max_entries(bpf_object__find_map_by_name(obj, "dt_mem"),
					 libbpf_num_possible_cpus());
		if (int e = bpf_object__load(obj); e) {
			why = "bpf_object__load: " + std::string(strerror(-e));
			bpf_object__close(obj);
			obj = nullptr;
			return;
		}
		mem_fd = bpf_object__find_map_fd_by_name(obj, "dt_mem");
		strtab_fd = bpf_object__find_map_fd_by_name(obj, "dt_strtab");
		globals_fd = bpf_object__find_map_fd_by_name(obj, "dt_globals");
		ring_fd = bpf_object__find_map_fd_by_name(obj, "dt_ring");
		cpu_fd = bpf_object__find_map_fd_by_name(obj, "dt_cpustate");
		status_fd = bpf_object__find_map_fd_by_name(obj, "dt_status");
		kbase = run("t_kaddr", {});
	}
	~lib()
	{
		if (obj)
			bpf_object__close(obj);
	}

	// Run program name with context c on CPU 0; regs[0].
	uint64_t run(const char *name, std::initializer_list<uint64_t> c)
	{
		std::vector<uint64_t> ctx(c);
		ctx.resize(8);
		bpf_program *p = bpf_object__find_program_by_name(obj, name);
		EXPECT_NE(p, nullptr) << name;
		if (!p)
			return 0;
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = ctx.data(),
			    .ctx_size_in = static_cast<uint32_t>(ctx.size() * 8),
			    .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = 0);
		int e = bpf_prog_test_run_opts(bpf_program__fd(p), &o);
		EXPECT_EQ(e, 0) << name << ": " << strerror(-e);
		EXPECT_EQ(o.retval, 0u) << name;
		uint32_t k = 0;
		EXPECT_EQ(bpf_map_lookup_elem(mem_fd, &k, memv.data()), 0);
		return m()->regs[0];
	}
	const dt_bpf_mem *m() const { return reinterpret_cast<const dt_bpf_mem *>(memv.data()); }
	uint32_t fault() const { return m()->fault.code; }
	uint64_t illval() const { return m()->fault.illval; }
	// The string at a scratch address in the last run's dt_mem.
	std::string str(uint64_t a) const
	{
		if ((a & DT_BPF_TAG_MASK) != SCRATCH)
			return "<not scratch: " + std::to_string(a) + ">";
		const char *s = reinterpret_cast<const char *>(m()->scratch) + DT_BPF_TAG_OFF(a);
		return std::string(s, strnlen(s, DT_BPF_SCRATCH_SIZE - DT_BPF_TAG_OFF(a)));
	}
	// Put bytes at strtab offset off; its tagged address.
	uint64_t strtab(uint32_t off, const std::string &s)
	{
		std::vector<uint8_t> v(DT_BPF_STRTAB_SIZE);
		uint32_t k = 0;
		bpf_map_lookup_elem(strtab_fd, &k, v.data());
		std::memcpy(v.data() + off, s.c_str(), s.size() + 1);
		bpf_map_update_elem(strtab_fd, &k, v.data(), 0);
		return STRTAB | off;
	}
	// Put bytes into dt_globals at off; their kernel address.
	uint64_t kput(uint32_t off, const void *p, size_t n)
	{
		std::vector<uint8_t> v(DT_BPF_GLOBALS_MAX);
		uint32_t k = 0;
		bpf_map_lookup_elem(globals_fd, &k, v.data());
		std::memcpy(v.data() + off, p, n);
		bpf_map_update_elem(globals_fd, &k, v.data(), 0);
		return kbase + off;
	}
	uint64_t kstr(uint32_t off, const std::string &s) { return kput(off, s.c_str(), s.size() + 1); }
};

inline lib &L()
{
	static lib l;
	return l;
}

#define NEED_LIB()                                                      \
	do {                                                            \
		if (getuid() != 0)                                      \
			GTEST_SKIP() << "needs root for bpf()";         \
		if (!L().obj)                                           \
			FAIL() << L().why;                              \
	} while (0)

constexpr uint64_t SS = 256; // strsize

} // namespace bpflib_test
