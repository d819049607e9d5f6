// SPDX-License-Identifier: MIT
//
// codegen.hpp - the translator's internals, shared by its files:
//
//   translate.cc        entry: builds a codegen, links, returns insns
//   codegen_frame.cc    prologue per context kind, ECB loop, epilogue,
//                       the fault subprogram (ERROR clauses), memory helpers
//   codegen_difo.cc     one DIF object -> BPF (result in r0)
//   codegen_vars.cc     its variables; codegen_subr.cc its subroutine calls
//   codegen_action.cc   actions: records into m->buf, aggregations
//   plan.cc             variable layout (also used here: byref rules)
//   link.cc             the BPF library: parse, select, append, relocate
//
// Register use in emitted code (BPF calling convention: r1-r5 arguments
// and clobbered by calls, r0 result, r6-r9 preserved):
//   r6 = ctx, r7 = m (this CPU's struct dt_bpf_mem), r8 = dt_globals value,
//   r9 = dt_status value (main program) / unused (fault subprogram).
// The BPF stack frame (same layout in the main program and the fault
// subprogram) holds the DIF registers, condition codes, tuple registers
// and temporaries at the fixed offsets below.
#pragma once

#include "abi/dt_bpf_abi.h"
#include "insn.hpp"
#include "link.hpp"
#include "translate.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace dt::engines::bpf {

// Stack slots (offsets from r10).
constexpr int16_t fp_reg(unsigned r)
{
	return static_cast<int16_t>(-8 * static_cast<int>(r + 1));
}
constexpr int16_t FP_CC_DIFF = -72; // cmp: a - b; tst: reg != 0; scmp: result
constexpr int16_t FP_CC_C = -80;    // cmp: a < b (unsigned); else 0
constexpr int16_t fp_tup(unsigned i)
{
	return static_cast<int16_t>(-88 - 8 * static_cast<int>(i));
}
constexpr int16_t FP_T1 = -152;
constexpr int16_t FP_T2 = -160;
constexpr int16_t FP_T3 = -168;
constexpr int16_t FP_KEY = -176; // u32/u64 key for array lookups
constexpr int16_t FP_LOWEST = -176;
// Below what zero_frame() zeroes: the dt_pair entry of a probe that ends
// an interval (pair.hpp), for the whole program.
constexpr int16_t FP_PAIR = -184;

#define DT_M(field) static_cast<int32_t>(offsetof(struct dt_bpf_mem, field))

// Rules shared by plan() and the code generator.
bool var_byref(const dtrace_diftype_t &t);
uint32_t var_refsize(const dtrace_diftype_t &t, uint64_t strsize);
const char *subr_name(uint32_t subr); // lower-case, nullptr if unknown
uint64_t subr_absent_arg(uint32_t subr, unsigned j, uint64_t strsize);

class codegen {
public:
	codegen(const program &p, const layout &l, const probe_spec &s, const map_fds &f,
		const library &lib)
		: p_(p), l_(l), spec_(s), fds_(f), lib_(lib)
	{
	}

	// The whole program before linking; clause_starts filled.
	void generate();
	asm_buf a;
	std::vector<std::pair<uint32_t, uint32_t>> clause_starts;

private:
	// codegen_frame.cc
	void prologue();
	void early_filter();
	void firing_state();
	void args_for_ctx();
	void filter_program();
	void arg_program();
	void steps_program(const std::vector<std::array<int64_t, 3>> &steps, int16_t acc,
			   uint64_t dropped);
	// pair.hpp: the interval's entry (or return at once), its deletion,
	// and raw argument s into reg (from the entry, or the context).
	void pair_begin();
	void pair_forget();
	void raw_arg(int reg, int32_t s);
	[[nodiscard]] uint32_t raw_count() const;
	[[nodiscard]] bool needs_clock() const;
	[[nodiscard]] bool predicate_is_early() const;
	void user_entry_return();
	void user_stack_args();
	void record_arg(int i, int32_t off, uint32_t fmt); // tp_record: one argument
	void usdt_args();
	bool clauses_use(bool (*want)(uint32_t op, uint32_t id)) const;
	void ecb(const ecb_ref &e, bool in_error);
	void fault_subprogram(int entry);
	void zero_frame();
	void zero_locals();
	// Always: the fault is certain (statically known); else the caller
	// jumped around it.
	void set_fault(uint32_t code, uint64_t illval, int64_t pc, bool always = false);
	void check_fault();
	void cpustate_add(int32_t field_off);
	void lookup0(int fd, int dst);				// r0 = &map[0] (or NULL)
	void copy_mem(int dst_reg, int src_reg, uint32_t size); // probe_read_kernel
	void scratch_ptr(int reg, uint32_t size);		// tagged scratch addr -> ptr
	void mem_off_ptr(int reg, int32_t off);			// reg = r7 + off

	// codegen_difo.cc, codegen_vars.cc, codegen_subr.cc
	void gen_difo(const dt::difo &d);
	void dif_insn(const dt::difo &d, uint32_t i, uint32_t in, const std::vector<int> &lab,
		      const std::vector<std::vector<bool>> &tup, int end);
	void rd_reg(unsigned r, int breg);
	void wr_reg(unsigned r, int breg);
	void lib_call(const char *sym, int64_t pc);
	void builtin(uint32_t id, unsigned rd, int64_t pc);
	// A user scalar: its variable (nullptr: none, the code faults) and
	// slot (globals in dt_globals at r8, clause-locals in m->locals).
	struct scalar_ref {
		const dtrace_difv_t *v = nullptr;
		uint32_t off = 0;
		bool global = false;
	};
	scalar_ref scalar_slot(const dt::difo &d, uint32_t id, uint8_t scope, int64_t pc);
	void slot_ptr(int reg, const scalar_ref &s, uint32_t extra);
	void scalar_load(const dt::difo &d, uint32_t id, uint8_t scope, unsigned rd, int64_t pc);
	void scalar_store(const dt::difo &d, uint32_t id, uint8_t scope, unsigned rs, int64_t pc);
	void dvar_op(const dt::difo &d, uint32_t op, uint32_t id, unsigned r, int64_t pc,
		     const std::vector<bool> &tup);
	void subr_call(uint32_t subr, unsigned rd, int64_t pc, const std::vector<bool> &tup);
	uint64_t strtab_base(const dt::difo &d) const;

	// codegen_action.cc
	bool clause_records(const clause &c) const;
	void clause_body(const clause &c, int next);
	void write_record(const record &r, const action &act);
	void write_key(const record &k, const aggregation &agg, size_t j);
	void aggregate(const action &act, const aggregation &agg, const clause &c);
	void zero_gaps(int base_reg, int32_t base_off, uint32_t size,
		       const std::vector<std::pair<uint32_t, uint32_t>> &covered);
	void set_action(uint32_t idx);

	// codegen_spec.cc: speculate/commit/discard (r0: the id; false for
	// other actions), and the commit()/discard() ends after the firing.
	bool spec_action(const action &act, const clause &c, int next);
	void spec_ends(const clause &c);

	[[noreturn]] void refuse(const std::string &what) const;

	const program &p_;
	const layout &l_;
	const probe_spec &spec_;
	const map_fds &fds_;
	const library &lib_;
	const clause *cur_ = nullptr; // clause being translated (for messages)
	uint32_t cur_line_ = 0;
	int fault_ = -1;	      // label: the current ECB's fault path
	int out_ = -1;		      // label: the epilogue
	int exit0_ = -1;	      // label: return without clearing m->active
	int nested_ = -1;	      // label: a nested firing (counted, dropped)
	int fsub_ = -1;		      // label: the fault subprogram (if called)
	uint32_t act_base_ = 0;	      // action index before the current action
	std::vector<bool> spec_ops_;  // the clause's commit() (true) / discard() ids so far
	bool spec_firing_ = false;    // the clause's firing goes to a speculation
	bool clock_ = true;	      // the prologue reads the clock (needs_clock())
	bool early_ = false;	      // the one ECB's predicate runs first
	bool skip_predicate_ = false; // clause_body(): the predicate already ran
};

} // namespace dt::engines::bpf
