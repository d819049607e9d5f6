// SPDX-License-Identifier: MIT
// Instruction boundaries of a function, for the pid provider's offset
// probes (pid123:libc.so.6:malloc:1c). Capstone decodes; nothing here
// knows an instruction set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dt::plugin::pid {

class insn_decoder {
public:
	insn_decoder() = default;
	insn_decoder(const insn_decoder &) = delete;
	insn_decoder &operator=(const insn_decoder &) = delete;
	~insn_decoder();

	// Prepare for ELF machine `e_machine` (EM_X86_64, EM_386). Returns
	// 0, or -ENOTSUP for a machine we cannot decode, with `why` set.
	[[nodiscard]] int open(unsigned e_machine, std::string &why);

	// Offsets of the instructions of `code[0..size)` from its start, in
	// order. Decoding stops at the first byte sequence that is not an
	// instruction (data in text); `complete` says whether it got to the end.
	// Instructions the kernel's uprobes refuse to probe (hlt, int3, in,
	// out ...: arch/x86/kernel/uprobes.c) are left out, and put in
	// `*refused` when it is given.
	[[nodiscard]] std::vector<uint64_t> offsets(const uint8_t *code, size_t size,
						    bool &complete,
						    std::vector<uint64_t> *refused = nullptr) const;

	// Can a uprobe be placed on the instruction at code[0] (a function's
	// entry, where its entry and return probes go)? False for one the
	// kernel refuses, as offsets() leaves out; true when it cannot be
	// decoded (the kernel then says).
	[[nodiscard]] bool placeable(const uint8_t *code, size_t size) const;

private:
	size_t handle_ = 0; // csh
	unsigned machine_ = 0;
};

} // namespace dt::plugin::pid
