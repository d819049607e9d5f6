// SPDX-License-Identifier: MIT
//
// codegen_spec.cc - speculate(), commit() and discard() in a clause
// (dt_bpf_abi.h "speculations", lib/spec.bpf.c), as the user engine's
// fire.cc runs them:
//
//   speculate(id)   r0 = id ─► dt_spec_speculate: 0 ─► the firing is
//                   dropped (next ECB); else the tag ─► m->buf right
//                   after the firing; the clause's firing then goes out
//                   with dt_emit_spec instead of dt_emit_firing
//   commit(id)      r0 = id ─► dt_spec_check (ILLOP above nspec) ─► the id
//   discard(id)     kept in m->buf after the tag; once the firing is out:
//                   dt_spec_end(id, commit) for each, in order
//
// m->buf layout of a clause of fsize bytes (sample header first):
//   [0, 8) header   [8, 8 + fsize) firing   [8 + fsize, +8) tag
//   [spec_base, ...) one 8-byte id per commit()/discard()
#include "codegen.hpp"

#include <algorithm>

namespace dt::engines::bpf {

namespace {

uint32_t firing_size(const clause &c)
{
	return std::max<uint32_t>(c.size, sizeof(dtrace_rechdr_t));
}

// Offset in m->buf of the k-th commit()/discard() id of the clause.
int32_t op_slot(const clause &c, uint32_t k)
{
	const uint32_t fsize = firing_size(c);
	return static_cast<int32_t>(8 + ((fsize + 7) & ~7u) + 8 + 8 * k);
}

} // namespace

bool codegen::spec_action(const action &act, const clause &c, int next)
{
	if (act.kind != DTRACEACT_SPECULATE && act.kind != DTRACEACT_COMMIT &&
	    act.kind != DTRACEACT_DISCARD)
		return false;
	// r0: the id, which the action's record also holds afterwards.
	a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
	a.mov_reg(BPF_REG_2, BPF_REG_0);
	a.mov_reg(BPF_REG_1, BPF_REG_7);
	if (act.kind == DTRACEACT_SPECULATE) {
		lib_call("dt_spec_speculate", -1);
		a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, next);
		const auto tag =
			static_cast<int16_t>(DT_M(buf) + 8 + static_cast<int32_t>(firing_size(c)));
		a.stx(BPF_W, BPF_REG_7, tag, BPF_REG_0);
		a.alu_imm(BPF_RSH, BPF_REG_0, 32);
		a.stx(BPF_W, BPF_REG_7, static_cast<int16_t>(tag + 4), BPF_REG_0);
		spec_firing_ = true;
	} else {
		lib_call("dt_spec_check", -1);
		const uint32_t k = static_cast<uint32_t>(spec_ops_.size());
		const int32_t at = op_slot(c, k);
		if (at + 8 > static_cast<int32_t>(DT_BPF_BUF_SIZE + 16))
			refuse("the clause's firing leaves no room for commit() or discard() in "
			       "the bpf engine's buffer");
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_10, FP_T1);
		a.stx(BPF_DW, BPF_REG_7, static_cast<int16_t>(DT_M(buf) + at), BPF_REG_1);
		spec_ops_.push_back(act.kind == DTRACEACT_COMMIT);
	}
	a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, FP_T1);
	return true;
}

void codegen::spec_ends(const clause &c)
{
	for (uint32_t k = 0; k < spec_ops_.size(); k++) {
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.ldx(BPF_DW, BPF_REG_2, BPF_REG_7,
		      static_cast<int16_t>(DT_M(buf) + op_slot(c, k)));
		a.mov_imm(BPF_REG_3, spec_ops_[k] ? 1 : 0);
		a.call_sym("dt_spec_end");
	}
	spec_ops_.clear();
	spec_firing_ = false;
}

} // namespace dt::engines::bpf
