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

namespace {

// Instructions x86 uprobes refuse (good_insns_64 and good_insns_0f in
// arch/x86/kernel/uprobes.c: their opcodes are 0 there), so that no
// offset probe is offered that no engine could place.
bool uprobe_refuses(unsigned id)
{
	switch (id) {
	case X86_INS_HLT:
	case X86_INS_INT3:
	case X86_INS_INT:
	case X86_INS_INT1:
	case X86_INS_INTO:
	case X86_INS_IRET:
	case X86_INS_IRETD:
	case X86_INS_IRETQ:
	case X86_INS_IN:
	case X86_INS_OUT:
	case X86_INS_INSB:
	case X86_INS_INSW:
	case X86_INS_INSD:
	case X86_INS_OUTSB:
	case X86_INS_OUTSW:
	case X86_INS_OUTSD:
	case X86_INS_CLI:
	case X86_INS_STI:
	case X86_INS_UD2:
	case X86_INS_SYSENTER:
	case X86_INS_SYSEXIT: return true;
	default: return false;
	}
}

// Legacy prefixes x86 uprobes refuse (is_prefix_bad() there): LOCK and
// the ES, CS, SS and DS segment overrides (DS is also CET's `notrack`).
bool prefix_refused(const cs_insn *insn)
{
	for (uint16_t i = 0; i < insn->size; i++) {
		switch (insn->bytes[i]) {
		case 0xf0:
		case 0x26:
		case 0x2e:
		case 0x36:
		case 0x3e: return true;
		case 0xf2:
		case 0xf3:
		case 0x64:
		case 0x65:
		case 0x66:
		case 0x67: continue; // other legacy prefixes
		default: return false;
		}
	}
	return false;
}

bool refused_insn(const cs_insn *insn)
{
	return uprobe_refuses(insn->id) || prefix_refused(insn);
}

} // namespace

bool insn_decoder::placeable(const uint8_t *code, size_t size) const
{
	if (handle_ == 0 || size == 0)
		return true;
	cs_insn *insn = cs_malloc(handle_);
	if (insn == nullptr)
		return true;
	const uint8_t *p = code;
	size_t left = size;
	uint64_t addr = 0;
	bool ok = !cs_disasm_iter(handle_, &p, &left, &addr, insn) || !refused_insn(insn);
	cs_free(insn, 1);
	return ok;
}

std::vector<uint64_t> insn_decoder::offsets(const uint8_t *code, size_t size, bool &complete,
					    std::vector<uint64_t> *refused) const
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
		if (!refused_insn(insn))
			out.push_back(at);
		else if (refused != nullptr)
			refused->push_back(at);
	}
	complete = left == 0;
	cs_free(insn, 1);
	return out;
}

} // namespace dt::plugin::pid
