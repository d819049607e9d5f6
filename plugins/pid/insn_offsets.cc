// SPDX-License-Identifier: MIT
// Capstone-backed instruction boundaries (see insn_offsets.hpp).
#include "insn_offsets.hpp"

#include <capstone/capstone.h>
#include <elf.h>

#include <cerrno>

namespace dt::plugin::pid {

insn_decoder::~insn_decoder()
{
	if (handle_ != 0) {
		csh h = handle_;
		cs_close(&h);
	}
}

int insn_decoder::open(unsigned e_machine, std::string &why)
{
	if (handle_ != 0 && machine_ == e_machine)
		return 0;
	if (handle_ != 0) {
		csh h = handle_;
		cs_close(&h);
		handle_ = 0;
	}
	cs_mode mode;
	switch (e_machine) {
	case EM_X86_64: mode = CS_MODE_64; break;
	case EM_386: mode = CS_MODE_32; break;
	default:
		why = "cannot decode instructions of ELF machine " + std::to_string(e_machine);
		return -ENOTSUP;
	}
	csh h = 0;
	cs_err err = cs_open(CS_ARCH_X86, mode, &h);
	if (err != CS_ERR_OK) {
		why = cs_strerror(err);
		return -ENOTSUP;
	}
	handle_ = h;
	machine_ = e_machine;
	return 0;
}

std::vector<uint64_t> insn_decoder::offsets(const uint8_t *code, size_t size,
					    bool &complete) const
{
	std::vector<uint64_t> out;
	complete = false;
	if (handle_ == 0)
		return out;
	// cs_disasm_iter decodes one instruction at a time into one
	// cs_insn: no per-function allocation of the whole listing.
	cs_insn *insn = cs_malloc(handle_);
	if (insn == nullptr)
		return out;
	const uint8_t *p = code;
	size_t left = size;
	uint64_t addr = 0;
	while (left > 0) {
		uint64_t at = addr;
		if (!cs_disasm_iter(handle_, &p, &left, &addr, insn))
			break;
		out.push_back(at);
	}
	complete = left == 0;
	cs_free(insn, 1);
	return out;
}

} // namespace dt::plugin::pid
