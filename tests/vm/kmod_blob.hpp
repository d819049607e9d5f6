// SPDX-License-Identifier: MIT
//
// kmod_blob.hpp - hand-written DIF programs for the VM tests of dtrace.ko,
// serialized as the DTRACEIOC_ENABLE program blob
// (kmod/include/uapi/dtrace/ioctl.h §4) by the writer the kmod engine
// uses too (core/engine/kmod/blob_writer.hpp).
#pragma once

#include "blob_writer.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace dt::kmodtest {

using act = dt::kmod::act_rec;
using ecb = dt::kmod::ecb_desc;

// A DIF object written by hand (rtype: a 64-bit integer unless set).
struct difo {
	std::vector<dif_instr_t> text;
	std::vector<uint64_t> inttab;
	std::string strtab;
	std::vector<dtrace_difv_t> vartab;
	dtrace_diftype_t rtype{0, 0, 0, 0, 8};
};

class blob : public dt::kmod::blob_writer {
public:
	using blob_writer::add;
	// Returns the DIF object's number (1-based).
	uint32_t add(const difo &d)
	{
		return add_difo(d.text, d.inttab, d.strtab, d.vartab, d.rtype);
	}
};

// ---- Small DIF objects ------------------------------------------------

inline dtrace_diftype_t int_type(uint32_t size = 8)
{
	return dtrace_diftype_t{DIF_TYPE_CTF, 0, 0, 0, size};
}

inline dtrace_diftype_t string_type(uint32_t size = 256)
{
	return dtrace_diftype_t{DIF_TYPE_STRING, 0, DIF_TF_BYREF, 0, size};
}

// setx v, %r1; ret %r1
inline difo constant(uint64_t v)
{
	difo d;
	d.inttab = {v};
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	return d;
}

// ldgs builtin, %r1; ret %r1 (arg0..arg9, pid, execname ...)
inline difo builtin(uint32_t var, bool string = false)
{
	difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDGS, var, 1), DIF_INSTR_RET(1)};
	d.rtype = string ? string_type() : int_type();
	return d;
}

// arg<n> == v
inline difo arg_equals(uint32_t n, uint64_t v)
{
	difo d;
	d.inttab = {v};
	d.text = {
		DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 1),
		DIF_INSTR_SETX(0, 2),
		DIF_INSTR_CMP(DIF_OP_CMP, 1, 2),
		DIF_INSTR_BRANCH(DIF_OP_BE, 6),
		DIF_INSTR_MOV(0, 3),
		DIF_INSTR_RET(3),
		DIF_INSTR_SETX(1, 3),
		DIF_INSTR_RET(3),
	};
	d.inttab.push_back(1);
	return d;
}

// builtin == v (pid == 123)
inline difo var_equals(uint32_t var, uint64_t v)
{
	difo d = arg_equals(0, v);
	d.text[0] = DIF_INSTR_LDV(DIF_OP_LDGS, var, 1);
	return d;
}

// copyinstr(arg<n>)
inline difo copyinstr_arg(uint32_t n)
{
	difo d;
	d.text = {DIF_INSTR_FLUSHTS, DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 1),
		  DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
		  DIF_INSTR_CALL(DIF_SUBR_COPYINSTR, 2), DIF_INSTR_RET(2)};
	d.rtype = string_type();
	return d;
}

// *(int *)arg<n>: ldsw [arg], %r2 (the load at byte offset 4)
inline difo deref_arg(uint32_t n)
{
	difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 1),
		  DIF_INSTR_LOAD(DIF_OP_LDSW, 1, 2), DIF_INSTR_RET(2)};
	d.rtype = int_type(4);
	return d;
}

// self->v = self->v + arg<n>; ret the new value (thread-local id var)
inline difo self_add_arg(uint32_t var, uint32_t n)
{
	difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDTS, var, 1), DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 2),
		  DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 3), DIF_INSTR_STV(DIF_OP_STTS, var, 3),
		  DIF_INSTR_RET(3)};
	dtrace_difv_t v{};
	v.dtdv_id = var;
	v.dtdv_kind = DIFV_KIND_SCALAR;
	v.dtdv_scope = DIFV_SCOPE_THREAD;
	v.dtdv_flags = DIFV_F_REF | DIFV_F_MOD;
	v.dtdv_type = int_type();
	d.vartab = {v};
	return d;
}

} // namespace dt::kmodtest
