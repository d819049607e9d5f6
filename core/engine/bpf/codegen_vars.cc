// SPDX-License-Identifier: MIT
//
// codegen_vars.cc - DIF variables in the bpf engine (codegen_difo.cc's
// ldgs/stgs, ldls/stls, ldts/stts, ldgaa/stgaa/ldtaa/sttaa):
//   built-ins     args, epid, errno, timestamp from m; id from dt_probes;
//                 the rest from the library's dt_builtin
//   globals       r8 + slot (dt_globals); clause-locals m->locals + slot;
//                 by-ref: a header word (non-zero: NULL) and the value;
//                 global loads give the storage's tagged address, local
//                 loads a scratch copy; stores copy in (strings
//                 through dt_strdup, so at most the strsize option's characters)
//   dynamic       thread-locals and associative arrays: the library
//                 (dt_tls_*, dt_dvar_*), keys staged with dt_tuple_push
#include "codegen.hpp"
#include "dif_isa.h"

namespace dt::engines::bpf {

namespace {

const dtrace_difv_t *var_find(const dt::difo &d, uint32_t id, uint8_t scope)
{
	for (const dtrace_difv_t &v : d.vartab)
		if (v.dtdv_id == id && v.dtdv_scope == scope)
			return &v;
	return nullptr;
}

bool find_slot(const std::vector<std::pair<uint32_t, uint32_t>> &slots, uint32_t id, uint32_t &off)
{
	for (auto [i, o] : slots)
		if (i == id) {
			off = o;
			return true;
		}
	return false;
}

} // namespace

void codegen::builtin(uint32_t id, unsigned rd, int64_t pc)
{
	if (id >= DIF_VAR_ARG0 && id <= DIF_VAR_ARG9) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7,
		      static_cast<int16_t>(DT_M(args) + 8 * static_cast<int>(id - DIF_VAR_ARG0)));
	} else if (id == DIF_VAR_EPID) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(epid));
	} else if (id == DIF_VAR_ERRNO) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(errno_));
	} else if (id == DIF_VAR_TIMESTAMP) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(timestamp));
	} else if (id == DIF_VAR_ID) {
		int none = a.label();
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(epid));
		a.stx(BPF_W, BPF_REG_10, FP_T1, BPF_REG_1);
		a.ld_map(BPF_REG_1, fds_.probes);
		a.mov_reg(BPF_REG_2, BPF_REG_10);
		a.alu_imm(BPF_ADD, BPF_REG_2, FP_T1);
		a.call_helper(BPF_FUNC_map_lookup_elem);
		a.mov_imm(BPF_REG_1, 0);
		a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, none);
		a.ldx(BPF_W, BPF_REG_1, BPF_REG_0,
		      static_cast<int16_t>(offsetof(struct dt_bpf_probe, id)));
		a.bind(none);
	} else {
		a.mov_reg(BPF_REG_1, BPF_REG_6);
		a.mov_reg(BPF_REG_2, BPF_REG_7);
		a.mov_imm(BPF_REG_3, static_cast<int32_t>(id));
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(l_.strsize));
		lib_call("dt_builtin", pc);
		a.mov_reg(BPF_REG_1, BPF_REG_0);
	}
	wr_reg(rd, BPF_REG_1);
}

// A user scalar's variable and slot; none: the code faults ILLOP.
codegen::scalar_ref codegen::scalar_slot(const dt::difo &d, uint32_t id, uint8_t scope, int64_t pc)
{
	scalar_ref s;
	s.global = scope == DIFV_SCOPE_GLOBAL;
	s.v = var_find(d, id, scope);
	if (s.v == nullptr || !find_slot(s.global ? l_.global_slots : l_.local_slots, id, s.off)) {
		set_fault(DTRACEFLT_ILLOP, id, pc, true);
		s.v = nullptr;
	}
	return s;
}

// reg = the address of byte `extra` of the scalar's slot (globals may lie
// beyond a 16-bit offset from r8).
void codegen::slot_ptr(int reg, const scalar_ref &s, uint32_t extra)
{
	if (s.global) {
		a.mov_reg(reg, BPF_REG_8);
		a.alu_imm(BPF_ADD, reg, static_cast<int32_t>(s.off + extra));
	} else {
		mem_off_ptr(reg, DT_M(locals) + static_cast<int32_t>(s.off + extra));
	}
}

// ldgs/ldls of a user scalar.
void codegen::scalar_load(const dt::difo &d, uint32_t id, uint8_t scope, unsigned rd, int64_t pc)
{
	const scalar_ref s = scalar_slot(d, id, scope, pc);
	if (s.v == nullptr)
		return;
	const dtrace_difv_t *v = s.v;
	slot_ptr(BPF_REG_5, s, 0);
	a.ldx(BPF_DW, BPF_REG_0, BPF_REG_5, 0);
	if (!var_byref(v->dtdv_type)) {
		wr_reg(rd, BPF_REG_0);
		return;
	}
	uint32_t size = var_refsize(v->dtdv_type, l_.strsize);
	int null = a.label(), done = a.label();
	a.jcc_imm(BPF_JNE, BPF_REG_0, 0, null);
	if (s.global) {
		// The storage itself, as dif_emulate.c's ldgs: stores through it
		// (x.a = 1 for a global struct x) change the variable.
		a.ld_imm64(BPF_REG_0, DT_BPF_TAG_GLOBALS | (s.off + 8));
	} else {
		// A scratch copy: dt_alloc, then copy the storage in.
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_imm(BPF_REG_2, static_cast<int32_t>(size));
		lib_call("dt_alloc", pc);
		a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
		scratch_ptr(BPF_REG_1, size);
		slot_ptr(BPF_REG_3, s, 8);
		copy_mem(BPF_REG_1, BPF_REG_3, size);
		// Stores through the copy (this->s.a = 1) write it back to the
		// variable's storage (dt_wb_flush, wb_map 3).
		constexpr auto wb = [](size_t f) {
			return static_cast<int16_t>(f - offsetof(struct dt_bpf_mem, wb_map));
		};
		a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, FP_T1);
		mem_off_ptr(BPF_REG_1, DT_M(wb_map));
		a.st_imm(BPF_DW, BPF_REG_1, 0, 3);
		a.stx(BPF_DW, BPF_REG_1, wb(offsetof(struct dt_bpf_mem, wb_lo)), BPF_REG_0);
		a.mov_reg(BPF_REG_2, BPF_REG_0);
		a.alu_imm(BPF_ADD, BPF_REG_2, static_cast<int32_t>(size));
		a.stx(BPF_DW, BPF_REG_1, wb(offsetof(struct dt_bpf_mem, wb_hi)), BPF_REG_2);
		a.st_imm(BPF_DW, BPF_REG_1, wb(offsetof(struct dt_bpf_mem, wb_key)),
			 static_cast<int32_t>(s.off + 8));
	}
	a.ja(done);
	a.bind(null);
	a.mov_imm(BPF_REG_0, 0);
	a.bind(done);
	wr_reg(rd, BPF_REG_0);
}

// stgs/stls of a user scalar: by-ref values are copied in (0 = NULL).
void codegen::scalar_store(const dt::difo &d, uint32_t id, uint8_t scope, unsigned rs, int64_t pc)
{
	const scalar_ref s = scalar_slot(d, id, scope, pc);
	if (s.v == nullptr)
		return;
	const dtrace_difv_t *v = s.v;
	rd_reg(rs, BPF_REG_2);
	if (!var_byref(v->dtdv_type)) {
		slot_ptr(BPF_REG_5, s, 0);
		a.stx(BPF_DW, BPF_REG_5, 0, BPF_REG_2);
		return;
	}
	uint32_t size = var_refsize(v->dtdv_type, l_.strsize);
	int set = a.label(), done = a.label();
	a.jcc_imm(BPF_JNE, BPF_REG_2, 0, set);
	slot_ptr(BPF_REG_5, s, 0);
	a.st_imm(BPF_DW, BPF_REG_5, 0, 1);
	a.ja(done);
	a.bind(set);
	if (v->dtdv_type.dtdt_kind == DIF_TYPE_STRING) {
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_imm(BPF_REG_3, static_cast<int32_t>(l_.strsize));
		lib_call("dt_strdup", pc);
		a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
	} else {
		a.stx(BPF_DW, BPF_REG_10, FP_T2, BPF_REG_2);
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_imm(BPF_REG_2, static_cast<int32_t>(size));
		lib_call("dt_alloc", pc);
		a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_reg(BPF_REG_2, BPF_REG_0);
		a.ldx(BPF_DW, BPF_REG_3, BPF_REG_10, FP_T2);
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(size));
		lib_call("dt_copy", pc);
	}
	scratch_ptr(BPF_REG_3, size);
	slot_ptr(BPF_REG_1, s, 8);
	copy_mem(BPF_REG_1, BPF_REG_3, size);
	slot_ptr(BPF_REG_5, s, 0);
	a.st_imm(BPF_DW, BPF_REG_5, 0, 0);
	a.bind(done);
}

void codegen::dvar_op(const dt::difo &d, uint32_t op, uint32_t id, unsigned r, int64_t pc,
		      const std::vector<bool> &tup)
{
	bool thread = dif_op_scope(op) == DIFV_SCOPE_THREAD;
	bool assoc = op == DIF_OP_LDGAA || op == DIF_OP_STGAA || op == DIF_OP_LDTAA ||
		     op == DIF_OP_STTAA;
	bool store = dif_op_form(op) == DIF_FORM_RS_VAR;
	const dtrace_difv_t *v = var_find(d, id, thread ? DIFV_SCOPE_THREAD : DIFV_SCOPE_GLOBAL);
	if (v == nullptr) {
		set_fault(DTRACEFLT_ILLOP, id, pc, true);
		return;
	}
	// lib/dt_lib.h: a string's size | DT_LIB_BYREF_STR (copied up to its NUL).
	int32_t byref = var_byref(v->dtdv_type)
				? static_cast<int32_t>(var_refsize(v->dtdv_type, l_.strsize))
				: 0;
	if (v->dtdv_type.dtdt_kind == DIF_TYPE_STRING)
		byref |= 0x40000000; // DT_LIB_BYREF_STR
	if (assoc) {
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_imm(BPF_REG_2, static_cast<int32_t>(l_.dvar_key_size));
		a.call_sym("dt_tuple_reset");
		for (size_t j = 0; j < tup.size(); j++) {
			a.mov_reg(BPF_REG_1, BPF_REG_7);
			a.ldx(BPF_DW, BPF_REG_2, BPF_REG_10, fp_tup(static_cast<unsigned>(j)));
			a.mov_imm(BPF_REG_3, tup[j] ? 1 : 0);
			a.mov_imm(BPF_REG_4, static_cast<int32_t>(l_.strsize));
			lib_call("dt_tuple_push", pc);
		}
	}
	a.mov_reg(BPF_REG_1, BPF_REG_7);
	a.mov_imm(BPF_REG_2, static_cast<int32_t>(id));
	if (!assoc) {
		if (store) {
			rd_reg(r, BPF_REG_3);
			a.mov_imm(BPF_REG_4, byref);
			lib_call("dt_tls_store", pc);
		} else {
			a.mov_imm(BPF_REG_3, byref);
			lib_call("dt_tls_load", pc);
			wr_reg(r, BPF_REG_0);
		}
		return;
	}
	a.mov_imm(BPF_REG_3, thread ? 1 : 0);
	if (store) {
		rd_reg(r, BPF_REG_4);
		a.mov_imm(BPF_REG_5, byref);
		lib_call("dt_dvar_store", pc);
	} else {
		a.mov_imm(BPF_REG_4, byref);
		lib_call("dt_dvar_load", pc);
		wr_reg(r, BPF_REG_0);
	}
}

} // namespace dt::engines::bpf
