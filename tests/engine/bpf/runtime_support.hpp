// SPDX-License-Identifier: MIT
//
// runtime_support.hpp - for the bpf runtime's tests: a sink that records
// what drain() delivers, a skip check for machines without bpf(), and a
// few hand-assembled BPF instructions (the tests load tiny programs of
// their own to drive the runtime's maps, ring and attachments; the
// translator has tests of its own).
#pragma once

#include <dtrace/engine.hpp>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace dt::test::bpf {

// Why the kernel refuses bpf() here, or "" if it works.
inline std::string bpf_unusable()
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_probe", 4, 8, 1, &o);
	if (fd < 0)
		return std::strerror(errno);
	close(fd);
	return "";
}

struct recording_sink final : engine_sink {
	struct event {
		char kind; // 'r' records, 'f' fault, 'd' drops
		uint32_t cpu = 0;
		std::vector<uint8_t> bytes;
		fault_report fault;
		std::string drop_kind;
		uint64_t n = 0;
	};
	std::vector<event> events;
	std::vector<agg_data> aggs;

	void records(std::span<const uint8_t> buf, uint32_t cpu) override
	{
		events.push_back({'r', cpu, {buf.begin(), buf.end()}, {}, {}, 0});
	}
	void aggregation(const agg_data &d) override { aggs.push_back(d); }
	void fault(const fault_report &f) override { events.push_back({'f', 0, {}, f, {}, 0}); }
	void drops(std::string_view kind, uint64_t n, uint32_t cpu) override
	{
		events.push_back({'d', cpu, {}, {}, std::string(kind), n});
	}
};

// Instructions (the kernel's filter.h macros, as functions).
inline bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	bpf_insn i{};
	i.code = code;
	i.dst_reg = dst & 0xf;
	i.src_reg = src & 0xf;
	i.off = off;
	i.imm = imm;
	return i;
}
inline bpf_insn mov64_imm(uint8_t dst, int32_t imm)
{
	return insn(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}
inline bpf_insn mov64_reg(uint8_t dst, uint8_t src)
{
	return insn(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
}
inline bpf_insn add64_imm(uint8_t dst, int32_t imm)
{
	return insn(BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm);
}
inline bpf_insn st_w(uint8_t dst, int16_t off, int32_t imm)
{
	return insn(BPF_ST | BPF_MEM | BPF_W, dst, 0, off, imm);
}
inline bpf_insn st_dw(uint8_t dst, int16_t off, int32_t imm)
{
	return insn(BPF_ST | BPF_MEM | BPF_DW, dst, 0, off, imm);
}
inline bpf_insn stx_w(uint8_t dst, uint8_t src, int16_t off)
{
	return insn(BPF_STX | BPF_MEM | BPF_W, dst, src, off, 0);
}
inline bpf_insn ldx_dw(uint8_t dst, uint8_t src, int16_t off)
{
	return insn(BPF_LDX | BPF_MEM | BPF_DW, dst, src, off, 0);
}
inline bpf_insn call(int32_t helper)
{
	return insn(BPF_JMP | BPF_CALL, 0, 0, 0, helper);
}
inline bpf_insn jeq_imm(uint8_t dst, int32_t imm, int16_t off)
{
	return insn(BPF_JMP | BPF_JEQ | BPF_K, dst, 0, off, imm);
}
inline bpf_insn exit_insn()
{
	return insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}
inline bpf_insn atomic_add64(uint8_t dst, uint8_t src, int16_t off)
{
	return insn(BPF_STX | BPF_ATOMIC | BPF_DW, dst, src, off, BPF_ADD);
}
// r_dst = map fd (two instructions).
inline void ld_map_fd(std::vector<bpf_insn> &v, uint8_t dst, int fd)
{
	v.push_back(insn(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd));
	v.push_back(insn(0, 0, 0, 0, 0));
}

inline int load(enum bpf_prog_type type, const std::vector<bpf_insn> &v, std::string *log = nullptr)
{
	static char buf[1 << 16];
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	if (log != nullptr) {
		o.log_level = 1;
		o.log_buf = buf;
		o.log_size = sizeof(buf);
	}
	int fd = bpf_prog_load(type, "dt_test", "Dual MIT/GPL", v.data(), v.size(), &o);
	if (fd < 0 && log != nullptr)
		*log = buf;
	return fd;
}

} // namespace dt::test::bpf
