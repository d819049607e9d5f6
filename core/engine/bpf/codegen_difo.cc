// SPDX-License-Identifier: MIT
//
// codegen_difo.cc - one DIF object to BPF, with dif_emulate.c's semantics.
// The result (ret) is left in r0.
//
//   DIF registers     stack slots fp_reg(1..7); %r0 reads 0
//   cmp/tst/scmp      FP_CC_DIFF (a - b, reg != 0, strcmp) and FP_CC_C
//                     (a < b unsigned): enough for every branch's flags
//   branches          forward only: BPF conditional jumps to labels;
//                     unreachable DIF instructions are not emitted (the
//                     verifier rejects unreachable code)
//   ALU               inline; shifts mod 64; division by zero faults
//                     DIVZERO; signed division on magnitudes
//   loads/stores      dt_ld dt_uld dt_st (library); rld* = ld* (root)
//   sets              DT_BPF_TAG_STRTAB | offset in layout.strtab
//   variables         codegen_vars.cc
//   tuple stack       tracked statically (the compiler pushes right before
//                     the call or the array access); staged into m->key by
//                     dt_tuple_push only for array accesses
//   call              codegen_subr.cc
//
// Faulting library calls are preceded by m->pc = DIF byte offset and
// followed by a test of m->fault.code.
#include "codegen.hpp"
#include "dif_isa.h"

namespace dt::engines::bpf {

void codegen::rd_reg(unsigned r, int breg)
{
	if (r == 0)
		a.mov_imm(breg, 0);
	else
		a.ldx(BPF_DW, breg, BPF_REG_10, fp_reg(r));
}

void codegen::wr_reg(unsigned r, int breg)
{
	if (r != 0)
		a.stx(BPF_DW, BPF_REG_10, fp_reg(r), breg);
}

void codegen::lib_call(const char *sym, int64_t pc)
{
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(pc), static_cast<int32_t>(pc));
	a.call_sym(sym);
	check_fault();
}

uint64_t codegen::strtab_base(const dt::difo &d) const
{
	for (auto &[dp, off] : l_.strtab_offsets)
		if (dp == &d)
			return off;
	throw translate_error("bpf engine: internal error: a DIF object missing from the plan "
			      "(translate() needs the layout plan() made for the same program)");
}

namespace {

bool is_branch(uint32_t op)
{
	return dif_op_form(op) == DIF_FORM_BRANCH;
}

} // namespace

void codegen::dif_insn(const dt::difo &d, uint32_t i, uint32_t in, const std::vector<int> &lab,
		       const std::vector<std::vector<bool>> &tup, int end)
{
	uint32_t op = DIF_INSTR_OP(in);
	unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in), rd = DIF_INSTR_RD(in);
	int64_t pc = static_cast<int64_t>(i) * 4;
	const std::vector<bool> &t = tup[i];

	auto alu = [&](int bop, bool mask) {
		rd_reg(r1, BPF_REG_1);
		rd_reg(r2, BPF_REG_2);
		if (mask)
			a.alu_imm(BPF_AND, BPF_REG_2, 63);
		a.alu_reg(bop, BPF_REG_1, BPF_REG_2);
		wr_reg(rd, BPF_REG_1);
	};
	auto divide = [&](bool is_signed, bool rem) {
		rd_reg(r1, BPF_REG_1);
		rd_reg(r2, BPF_REG_2);
		int ok = a.label();
		a.jcc_imm(BPF_JNE, BPF_REG_2, 0, ok);
		set_fault(DTRACEFLT_DIVZERO, 0, pc);
		a.bind(ok);
		if (!is_signed) {
			a.alu_reg(rem ? BPF_MOD : BPF_DIV, BPF_REG_1, BPF_REG_2);
			wr_reg(rd, BPF_REG_1);
			return;
		}
		int l1 = a.label(), l2 = a.label(), l3 = a.label();
		a.mov_imm(BPF_REG_3, 0); // negate the result?
		a.jcc_imm(BPF_JSGE, BPF_REG_1, 0, l1);
		a.neg(BPF_REG_1);
		a.mov_imm(BPF_REG_3, 1);
		a.bind(l1);
		a.jcc_imm(BPF_JSGE, BPF_REG_2, 0, l2);
		a.neg(BPF_REG_2);
		if (!rem)
			a.alu_imm(BPF_XOR, BPF_REG_3, 1);
		a.bind(l2);
		a.alu_reg(rem ? BPF_MOD : BPF_DIV, BPF_REG_1, BPF_REG_2);
		a.jcc_imm(BPF_JEQ, BPF_REG_3, 0, l3);
		a.neg(BPF_REG_1);
		a.bind(l3);
		wr_reg(rd, BPF_REG_1);
	};
	auto load = [&](const char *sym, uint32_t size, bool sgn) {
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		rd_reg(r1, BPF_REG_2);
		a.mov_imm(BPF_REG_3, static_cast<int32_t>(size));
		a.mov_imm(BPF_REG_4, sgn ? 1 : 0);
		lib_call(sym, pc);
		wr_reg(rd, BPF_REG_0);
	};
	auto store = [&](uint32_t size) {
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		rd_reg(rd, BPF_REG_2);
		rd_reg(r1, BPF_REG_3);
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(size));
		lib_call("dt_st", pc);
	};
	static const uint32_t load_size[] = {1, 2, 4, 1, 2, 4, 8};

	// Over enum dif_opcode: -Wswitch-enum (an error here) names an opcode of
	// dif_ops.def this switch lacks.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
	switch (static_cast<dif_opcode>(op)) {
	case DIF_OP_OR: alu(BPF_OR, false); break;
	case DIF_OP_XOR: alu(BPF_XOR, false); break;
	case DIF_OP_AND: alu(BPF_AND, false); break;
	case DIF_OP_SLL: alu(BPF_LSH, true); break;
	case DIF_OP_SRL: alu(BPF_RSH, true); break;
	case DIF_OP_SRA: alu(BPF_ARSH, true); break;
	case DIF_OP_SUB: alu(BPF_SUB, false); break;
	case DIF_OP_ADD: alu(BPF_ADD, false); break;
	case DIF_OP_MUL: alu(BPF_MUL, false); break;
	case DIF_OP_SDIV: divide(true, false); break;
	case DIF_OP_SREM: divide(true, true); break;
	case DIF_OP_UDIV: divide(false, false); break;
	case DIF_OP_UREM: divide(false, true); break;
	case DIF_OP_NOT:
		rd_reg(r1, BPF_REG_1);
		a.alu_imm(BPF_XOR, BPF_REG_1, -1);
		wr_reg(rd, BPF_REG_1);
		break;
	case DIF_OP_MOV:
		rd_reg(r1, BPF_REG_1);
		wr_reg(rd, BPF_REG_1);
		break;
	case DIF_OP_CMP: {
		int ge = a.label();
		rd_reg(r1, BPF_REG_1);
		rd_reg(r2, BPF_REG_2);
		a.mov_reg(BPF_REG_3, BPF_REG_1);
		a.alu_reg(BPF_SUB, BPF_REG_3, BPF_REG_2);
		a.stx(BPF_DW, BPF_REG_10, FP_CC_DIFF, BPF_REG_3);
		a.mov_imm(BPF_REG_4, 0);
		a.jcc_reg(BPF_JGE, BPF_REG_1, BPF_REG_2, ge);
		a.mov_imm(BPF_REG_4, 1);
		a.bind(ge);
		a.stx(BPF_DW, BPF_REG_10, FP_CC_C, BPF_REG_4);
		break;
	}
	case DIF_OP_TST: {
		int z = a.label();
		rd_reg(r1, BPF_REG_1);
		a.mov_imm(BPF_REG_3, 0);
		a.jcc_imm(BPF_JEQ, BPF_REG_1, 0, z);
		a.mov_imm(BPF_REG_3, 1);
		a.bind(z);
		a.stx(BPF_DW, BPF_REG_10, FP_CC_DIFF, BPF_REG_3);
		a.st_imm(BPF_DW, BPF_REG_10, FP_CC_C, 0);
		break;
	}
	case DIF_OP_SCMP:
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		rd_reg(r1, BPF_REG_2);
		rd_reg(r2, BPF_REG_3);
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(l_.strsize));
		lib_call("dt_scmp", pc);
		a.stx(BPF_DW, BPF_REG_10, FP_CC_DIFF, BPF_REG_0);
		a.st_imm(BPF_DW, BPF_REG_10, FP_CC_C, 0);
		break;
	case DIF_OP_BA: a.ja(lab[DIF_INSTR_LABEL(in)]); break;
	case DIF_OP_BE:
	case DIF_OP_BNE:
	case DIF_OP_BG:
	case DIF_OP_BGE:
	case DIF_OP_BL:
	case DIF_OP_BLE: {
		static const int jop[] = {BPF_JEQ, BPF_JNE,  BPF_JSGT, 0,	BPF_JSGE,
					  0,	   BPF_JSLT, 0,	       BPF_JSLE};
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_10, FP_CC_DIFF);
		a.jcc_imm(jop[op - DIF_OP_BE], BPF_REG_1, 0, lab[DIF_INSTR_LABEL(in)]);
		break;
	}
	case DIF_OP_BGU: {
		int no = a.label();
		a.ldx(BPF_DW, BPF_REG_2, BPF_REG_10, FP_CC_C);
		a.jcc_imm(BPF_JNE, BPF_REG_2, 0, no);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_10, FP_CC_DIFF);
		a.jcc_imm(BPF_JNE, BPF_REG_1, 0, lab[DIF_INSTR_LABEL(in)]);
		a.bind(no);
		break;
	}
	case DIF_OP_BGEU:
	case DIF_OP_BLU:
		a.ldx(BPF_DW, BPF_REG_2, BPF_REG_10, FP_CC_C);
		a.jcc_imm(op == DIF_OP_BGEU ? BPF_JEQ : BPF_JNE, BPF_REG_2, 0,
			  lab[DIF_INSTR_LABEL(in)]);
		break;
	case DIF_OP_BLEU:
		a.ldx(BPF_DW, BPF_REG_2, BPF_REG_10, FP_CC_C);
		a.jcc_imm(BPF_JNE, BPF_REG_2, 0, lab[DIF_INSTR_LABEL(in)]);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_10, FP_CC_DIFF);
		a.jcc_imm(BPF_JEQ, BPF_REG_1, 0, lab[DIF_INSTR_LABEL(in)]);
		break;
	case DIF_OP_LDSB:
	case DIF_OP_LDSH:
	case DIF_OP_LDSW:
	case DIF_OP_LDUB:
	case DIF_OP_LDUH:
	case DIF_OP_LDUW:
	case DIF_OP_LDX: {
		uint32_t k = op - DIF_OP_LDSB;
		load("dt_ld", load_size[k], k < 3);
		break;
	}
	case DIF_OP_RLDSB:
	case DIF_OP_RLDSH:
	case DIF_OP_RLDSW:
	case DIF_OP_RLDUB:
	case DIF_OP_RLDUH:
	case DIF_OP_RLDUW:
	case DIF_OP_RLDX: {
		uint32_t k = op - DIF_OP_RLDSB;
		load("dt_ld", load_size[k], k < 3);
		break;
	}
	case DIF_OP_ULDSB:
	case DIF_OP_ULDSH:
	case DIF_OP_ULDSW:
	case DIF_OP_ULDUB:
	case DIF_OP_ULDUH:
	case DIF_OP_ULDUW:
	case DIF_OP_ULDX: {
		uint32_t k = op - DIF_OP_ULDSB;
		load("dt_uld", load_size[k], k < 3);
		break;
	}
	case DIF_OP_STB: store(1); break;
	case DIF_OP_STH: store(2); break;
	case DIF_OP_STW: store(4); break;
	case DIF_OP_STX: store(8); break;
	case DIF_OP_RET:
		rd_reg(rd, BPF_REG_0);
		a.ja(end);
		break;
	case DIF_OP_NOP: break;
	case DIF_OP_SETX: {
		uint32_t k = DIF_INSTR_INTEGER(in);
		if (k >= d.inttab.size())
			refuse("invalid integer reference in DIF");
		a.ld_imm64(BPF_REG_1, d.inttab[k]);
		wr_reg(rd, BPF_REG_1);
		break;
	}
	case DIF_OP_SETS:
		a.ld_imm64(BPF_REG_1, DT_BPF_TAG_STRTAB | (strtab_base(d) + DIF_INSTR_STRING(in)));
		wr_reg(rd, BPF_REG_1);
		break;
	case DIF_OP_LDGA:
		if (r1 == DIF_VAR_ARGS) {
			int ok = a.label();
			rd_reg(r2, BPF_REG_1);
			a.jcc_imm(BPF_JLT, BPF_REG_1,
				  spec_.ctx == ctx_kind::usdt ? DT_BPF_NARGS_USDT : DT_BPF_NARGS,
				  ok);
			set_fault(DTRACEFLT_ILLOP, DIF_VAR_ARGS, pc);
			a.bind(ok);
			a.alu_imm(BPF_LSH, BPF_REG_1, 3);
			a.alu_reg(BPF_ADD, BPF_REG_1, BPF_REG_7);
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_1, DT_M(args));
			wr_reg(rd, BPF_REG_1);
		} else if (r1 == DIF_VAR_UREGS) {
			rd_reg(r2, BPF_REG_2);
			a.mov_reg(BPF_REG_1, BPF_REG_7);
			lib_call("dt_uregs", pc);
			wr_reg(rd, BPF_REG_0);
		} else if (r1 < DIF_VAR_ARRAY_UBASE) {
			refuse("regs[] is not supported by the bpf engine");
		} else {
			set_fault(DTRACEFLT_ILLOP, r1, pc, true);
		}
		break;
	case DIF_OP_LDGS: {
		uint32_t id = DIF_INSTR_VAR(in);
		if (id < DIF_VAR_OTHER_UBASE)
			builtin(id, rd, pc);
		else
			scalar_load(d, id, DIFV_SCOPE_GLOBAL, rd, pc);
		break;
	}
	case DIF_OP_LDLS: scalar_load(d, DIF_INSTR_VAR(in), DIFV_SCOPE_LOCAL, rd, pc); break;
	case DIF_OP_STGS: scalar_store(d, DIF_INSTR_VAR(in), DIFV_SCOPE_GLOBAL, rd, pc); break;
	case DIF_OP_STLS: scalar_store(d, DIF_INSTR_VAR(in), DIFV_SCOPE_LOCAL, rd, pc); break;
	case DIF_OP_LDTS:
	case DIF_OP_STTS:
	case DIF_OP_LDGAA:
	case DIF_OP_LDTAA:
	case DIF_OP_STGAA:
	case DIF_OP_STTAA: dvar_op(d, op, DIF_INSTR_VAR(in), rd, pc, t); break;
	case DIF_OP_PUSHTR:
	case DIF_OP_PUSHTV:
		if (t.size() >= DIF_DTR_NREGS) {
			set_fault(DTRACEFLT_TUPOFLOW, 0, pc, true);
			break;
		}
		if (op == DIF_OP_PUSHTR && r1 != DIF_TYPE_STRING)
			refuse("associative array keys that are structs or arrays are not "
			       "supported by the bpf engine yet");
		rd_reg(rd, BPF_REG_1);
		a.stx(BPF_DW, BPF_REG_10, fp_tup(static_cast<unsigned>(t.size())), BPF_REG_1);
		break;
	case DIF_OP_POPTS:
	case DIF_OP_FLUSHTS: break; // static
	case DIF_OP_CALL: subr_call(DIF_INSTR_SUBR(in), rd, pc, t); break;
	case DIF_OP_ALLOCS:
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		rd_reg(r1, BPF_REG_2);
		lib_call("dt_alloc", pc);
		wr_reg(rd, BPF_REG_0);
		break;
	case DIF_OP_COPYS:
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		rd_reg(rd, BPF_REG_2);
		rd_reg(r1, BPF_REG_3);
		rd_reg(r2, BPF_REG_4);
		lib_call("dt_copy", pc);
		break;
	case DIF_OP_LDTA: set_fault(DTRACEFLT_ILLOP, 0, pc, true); break;
	case DIF_OP_XLATE:
	case DIF_OP_XLARG:
	default:
		refuse("DIF instruction " + std::to_string(op) +
		       " is not supported by the bpf engine (translators must be resolved)");
	}
#pragma GCC diagnostic pop
}

void codegen::gen_difo(const dt::difo &d)
{
	const uint32_t n = static_cast<uint32_t>(d.text.size());
	if (n == 0) {
		a.mov_imm(BPF_REG_0, 0);
		return;
	}
	// Reachability and the tuple stack at each instruction (forward flow).
	// As in illumos, consumers (call, ldgaa ...) leave the stack as it is.
	// Paths that meet with different stacks leave it unknown ("mixed"),
	// which is fine until something reads it before the next flushts: the
	// compiler flushes before every new tuple, so only hand-made DIF can
	// be refused here.
	std::vector<std::vector<bool>> tup(n);
	std::vector<bool> reach(n, false), mixed(n, false);
	std::vector<int> lab(n, -1);
	reach[0] = true;
	auto merge = [&](uint32_t to, const std::vector<bool> &s, bool mx) {
		if (to >= n)
			refuse("a DIF branch leaves its object");
		if (!reach[to]) {
			reach[to] = true;
			tup[to] = s;
			mixed[to] = mx;
		} else if (mx || mixed[to] || tup[to] != s) {
			mixed[to] = true;
			tup[to].clear();
		}
	};
	for (uint32_t i = 0; i < n; i++) {
		if (!reach[i])
			continue;
		uint32_t in = d.text[i], op = DIF_INSTR_OP(in);
		std::vector<bool> s = tup[i];
		bool mx = mixed[i];
		switch (op) {
		case DIF_OP_PUSHTR:
		case DIF_OP_PUSHTV:
			if (s.size() < DIF_DTR_NREGS)
				s.push_back(op == DIF_OP_PUSHTR &&
					    DIF_INSTR_TYPE(in) == DIF_TYPE_STRING);
			break;
		case DIF_OP_POPTS:
			if (mx)
				refuse("the DIF tuple stack differs between the paths to one "
				       "instruction (not supported by the bpf engine)");
			if (!s.empty())
				s.pop_back();
			break;
		case DIF_OP_FLUSHTS:
			s.clear();
			mx = false;
			break;
		case DIF_OP_CALL:
		case DIF_OP_LDGAA:
		case DIF_OP_LDTAA:
		case DIF_OP_STGAA:
		case DIF_OP_STTAA:
			if (mx)
				refuse("the DIF tuple stack differs between the paths to one "
				       "instruction (not supported by the bpf engine)");
			break;
		default: break;
		}
		if (is_branch(op)) {
			uint32_t to = DIF_INSTR_LABEL(in);
			if (to <= i)
				refuse("a backward DIF branch");
			merge(to, s, mx);
			if (lab[to] < 0)
				lab[to] = a.label();
		}
		if (op != DIF_OP_BA && op != DIF_OP_RET && i + 1 < n)
			merge(i + 1, s, mx);
	}

	int end = a.label();
	for (unsigned r = 1; r < DIF_DIR_NREGS; r++)
		a.st_imm(BPF_DW, BPF_REG_10, fp_reg(r), 0);
	for (uint32_t i = 0; i < n; i++) {
		if (!reach[i])
			continue;
		if (lab[i] >= 0)
			a.bind(lab[i]);
		dif_insn(d, i, d.text[i], lab, tup, end);
	}
	a.bind(end);
}

} // namespace dt::engines::bpf
