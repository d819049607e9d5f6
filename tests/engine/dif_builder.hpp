// SPDX-License-Identifier: MIT
// Hand-built DIF objects and program pieces for the engine tests: each
// helper returns a small, valid DIFO computing one value.
#pragma once

#include <dtrace/program.hpp>

#include <cstdint>
#include <string>

namespace dt::test {

inline dtrace_diftype_t int_type(uint32_t size = 8)
{
	dtrace_diftype_t t{};
	t.dtdt_kind = DIF_TYPE_CTF;
	t.dtdt_size = size;
	return t;
}

inline dtrace_diftype_t string_type(uint32_t strsize = 256)
{
	dtrace_diftype_t t{};
	t.dtdt_kind = DIF_TYPE_STRING;
	t.dtdt_flags = DIF_TF_BYREF;
	t.dtdt_size = strsize;
	return t;
}

// setx v, %r1; ret %r1
inline difo int_const(uint64_t v)
{
	difo d;
	d.inttab = {v};
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	d.rtype = int_type();
	return d;
}

// sets "s", %r1; ret %r1
inline difo str_const(const std::string &s)
{
	difo d;
	d.strtab = s + '\0';
	d.text = {DIF_INSTR_SETS(0, 1), DIF_INSTR_RET(1)};
	d.rtype = string_type();
	return d;
}

// ldgs id, %r1; ret %r1 (a built-in variable or a user global)
inline difo load_var(uint32_t id, bool string = false)
{
	difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDGS, id, 1), DIF_INSTR_RET(1)};
	d.rtype = string ? string_type() : int_type();
	if (id >= DIF_VAR_OTHER_UBASE) {
		dtrace_difv_t v{};
		v.dtdv_id = id;
		v.dtdv_kind = DIFV_KIND_SCALAR;
		v.dtdv_scope = DIFV_SCOPE_GLOBAL;
		v.dtdv_flags = DIFV_F_REF;
		v.dtdv_type = d.rtype;
		d.vartab = {v};
	}
	return d;
}

// setx v, %r1; stgs %r1, id; ret %r1
inline difo store_global(uint32_t id, uint64_t v)
{
	difo d;
	d.inttab = {v};
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_STV(DIF_OP_STGS, id, 1), DIF_INSTR_RET(1)};
	d.rtype = int_type();
	dtrace_difv_t var{};
	var.dtdv_id = id;
	var.dtdv_kind = DIFV_KIND_SCALAR;
	var.dtdv_scope = DIFV_SCOPE_GLOBAL;
	var.dtdv_flags = DIFV_F_MOD;
	var.dtdv_type = int_type();
	d.vartab = {var};
	return d;
}

// call speculation, %r1; stgs %r1, id; ret %r1
inline difo store_speculation(uint32_t id)
{
	difo d;
	d.text = {DIF_INSTR_FLUSHTS, DIF_INSTR_CALL(DIF_SUBR_SPECULATION, 1),
		  DIF_INSTR_STV(DIF_OP_STGS, id, 1), DIF_INSTR_RET(1)};
	d.rtype = int_type();
	dtrace_difv_t var{};
	var.dtdv_id = id;
	var.dtdv_kind = DIFV_KIND_SCALAR;
	var.dtdv_scope = DIFV_SCOPE_GLOBAL;
	var.dtdv_flags = DIFV_F_MOD;
	var.dtdv_type = int_type();
	d.vartab = {var};
	return d;
}

// setx 1, %r1; sdiv %r1, %r0, %r2; ret %r2  -- faults DIVZERO at offset 4
inline difo div_by_zero()
{
	difo d;
	d.inttab = {1};
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_FMT(DIF_OP_SDIV, 1, 0, 2), DIF_INSTR_RET(2)};
	d.rtype = int_type();
	return d;
}

// ld id, %r1; add %r1, <inc>, %r1; st %r1, id; ret %r1: this->v += inc
// (DIFV_SCOPE_LOCAL, ldls/stls) or self->v += inc (DIFV_SCOPE_THREAD, ldts/stts).
inline difo bump_var(uint32_t id, uint64_t inc, uint8_t scope)
{
	bool local = scope == DIFV_SCOPE_LOCAL;
	difo d;
	d.inttab = {inc};
	d.text = {DIF_INSTR_LDV(local ? DIF_OP_LDLS : DIF_OP_LDTS, id, 1), DIF_INSTR_SETX(0, 2),
		  DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 1),
		  DIF_INSTR_STV(local ? DIF_OP_STLS : DIF_OP_STTS, id, 1), DIF_INSTR_RET(1)};
	d.rtype = int_type();
	dtrace_difv_t var{};
	var.dtdv_id = id;
	var.dtdv_kind = DIFV_KIND_SCALAR;
	var.dtdv_scope = scope;
	var.dtdv_flags = DIFV_F_REF | DIFV_F_MOD;
	var.dtdv_type = int_type();
	d.vartab = {var};
	return d;
}

// setx addr, %r1; pushtv %r1; call copyinstr, %r2; ret %r2
inline difo copyinstr_of(uint64_t addr)
{
	difo d;
	d.inttab = {addr};
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_FLUSHTS,
		  DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
		  DIF_INSTR_CALL(DIF_SUBR_COPYINSTR, 2), DIF_INSTR_RET(2)};
	d.rtype = string_type();
	return d;
}

// setx addr, %r1; ldx [%r1], %r2; ret %r2  -- a kernel load at offset 4
inline difo load_kernel(uint64_t addr)
{
	difo d;
	d.inttab = {addr};
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_LOAD(DIF_OP_LDX, 1, 2), DIF_INSTR_RET(2)};
	d.rtype = int_type();
	return d;
}

inline record int_record(difo e, uint32_t offset, uint32_t size = 8)
{
	record r;
	r.expr = std::move(e);
	r.type.k = value_type::kind::integer;
	r.type.size = size;
	r.offset = offset;
	r.size = size;
	r.alignment = size;
	return r;
}

inline record str_record(difo e, uint32_t offset, uint32_t size)
{
	record r;
	r.expr = std::move(e);
	r.type.k = value_type::kind::string;
	r.type.size = size;
	r.offset = offset;
	r.size = size;
	return r;
}

inline action trace_action(record r)
{
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.args.push_back(std::move(r));
	return a;
}

inline clause clause_on(const std::string &provider, const std::string &name, uint32_t size)
{
	clause c;
	c.descs.push_back({provider, "", "", name});
	c.desc_text = provider + ":::" + name;
	c.size = size;
	return c;
}

} // namespace dt::test
