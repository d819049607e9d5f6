// SPDX-License-Identifier: MIT
//
// insn.hpp - a small BPF assembler for the translator: instruction
// builders, forward labels, and symbolic calls that link.cc resolves.
//
//   asm_buf a;
//   int l = a.label();
//   a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, l);   // forward jump to l
//   a.call_sym("dt_ld");                   // BPF-to-BPF call, linked later
//   a.bind(l);
//   a.finish();                            // patches jump offsets
//
// Labels are bound once; every jump must be forward or to a bound label
// (the translator only emits forward jumps). used(l) tells whether
// anything jumps to l, so that code only reachable through l is emitted
// only when needed (the verifier rejects unreachable instructions).
#pragma once

#include "translate.hpp"

#include <linux/bpf.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dt::engines::bpf {

inline bpf_insn mk(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	bpf_insn i{};
	i.code = code;
	i.dst_reg = dst & 0xf;
	i.src_reg = src & 0xf;
	i.off = off;
	i.imm = imm;
	return i;
}

// A call site to resolve at link time: a library function or a local
// subprogram (by label).
struct call_fixup {
	uint32_t insn = 0;
	std::string sym; // library symbol; empty: local label
	int label = -1;
};

class asm_buf {
public:
	std::vector<bpf_insn> code;
	std::vector<call_fixup> calls;

	[[nodiscard]] uint32_t pc() const { return static_cast<uint32_t>(code.size()); }
	void emit(bpf_insn i) { code.push_back(i); }

	// ALU (64-bit).
	void mov_imm(int dst, int32_t imm)
	{
		emit(mk(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm));
	}
	void mov_reg(int dst, int src) { emit(mk(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0)); }
	void alu_imm(int op, int dst, int32_t imm)
	{
		emit(mk(BPF_ALU64 | op | BPF_K, dst, 0, 0, imm));
	}
	void alu_reg(int op, int dst, int src) { emit(mk(BPF_ALU64 | op | BPF_X, dst, src, 0, 0)); }
	void neg(int dst) { emit(mk(BPF_ALU64 | BPF_NEG, dst, 0, 0, 0)); }
	void ld_imm64(int dst, uint64_t v, int src = 0)
	{
		emit(mk(BPF_LD | BPF_DW | BPF_IMM, dst, src, 0, static_cast<int32_t>(v)));
		emit(mk(0, 0, 0, 0, static_cast<int32_t>(v >> 32)));
	}
	void ld_map(int dst, int fd)
	{
		ld_imm64(dst, static_cast<uint32_t>(fd), BPF_PSEUDO_MAP_FD);
	}

	// Memory: size is BPF_B, BPF_H, BPF_W or BPF_DW.
	void ldx(int size, int dst, int src, int16_t off)
	{
		emit(mk(BPF_LDX | size | BPF_MEM, dst, src, off, 0));
	}
	void stx(int size, int dst, int16_t off, int src)
	{
		emit(mk(BPF_STX | size | BPF_MEM, dst, src, off, 0));
	}
	void st_imm(int size, int dst, int16_t off, int32_t imm)
	{
		emit(mk(BPF_ST | size | BPF_MEM, dst, 0, off, imm));
	}

	// Calls.
	void call_helper(int32_t id) { emit(mk(BPF_JMP | BPF_CALL, 0, 0, 0, id)); }
	void call_sym(const std::string &sym)
	{
		calls.push_back({pc(), sym, -1});
		emit(mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, -1));
	}
	void call_label(int l)
	{
		calls.push_back({pc(), {}, l});
		use(l);
		emit(mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, -1));
	}
	void exit_() { emit(mk(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)); }

	// Labels and jumps.
	int label()
	{
		labels_.push_back(-1);
		uses_.push_back(0);
		return static_cast<int>(labels_.size()) - 1;
	}
	void bind(int l) { labels_[static_cast<size_t>(l)] = static_cast<int64_t>(pc()); }
	[[nodiscard]] bool used(int l) const { return uses_[static_cast<size_t>(l)] != 0; }
	[[nodiscard]] int64_t where(int l) const { return labels_[static_cast<size_t>(l)]; }
	void ja(int l) { jump(mk(BPF_JMP | BPF_JA, 0, 0, 0, 0), l); }
	void jcc_imm(int op, int dst, int32_t imm, int l)
	{
		jump(mk(BPF_JMP | op | BPF_K, dst, 0, 0, imm), l);
	}
	void jcc_reg(int op, int dst, int src, int l)
	{
		jump(mk(BPF_JMP | op | BPF_X, dst, src, 0, 0), l);
	}

	// Resolve jump offsets (throws translate_error if one does not fit).
	void finish();
	// Where local subprogram call l lands (after finish()).
	[[nodiscard]] uint32_t label_pc(int l) const
	{
		return static_cast<uint32_t>(labels_[static_cast<size_t>(l)]);
	}

private:
	void use(int l) { uses_[static_cast<size_t>(l)]++; }
	void jump(bpf_insn i, int l)
	{
		jumps_.push_back({pc(), l});
		use(l);
		emit(i);
	}
	std::vector<int64_t> labels_;
	std::vector<uint32_t> uses_;
	struct jfix {
		uint32_t insn;
		int label;
	};
	std::vector<jfix> jumps_;
};

inline void asm_buf::finish()
{
	for (const jfix &j : jumps_) {
		int64_t t = labels_[static_cast<size_t>(j.label)];
		if (t < 0)
			throw translate_error("bpf engine: internal error: unbound label");
		int64_t off = t - (static_cast<int64_t>(j.insn) + 1);
		if (off < -32768 || off > 32767)
			throw translate_error("bpf engine: the program is too large (a jump "
					      "does not fit in 16 bits)");
		code[j.insn].off = static_cast<int16_t>(off);
	}
	jumps_.clear();
}

} // namespace dt::engines::bpf
