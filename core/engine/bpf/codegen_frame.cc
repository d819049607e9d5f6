// SPDX-License-Identifier: MIT
//
// codegen_frame.cc - the frame around the clauses (translate.hpp):
//
//   prologue   r6 = ctx; the system call's number against the few enabled
//              (early_filter(): the machine's other calls return there);
//              a probe that ends an interval: its begin's entry, or
//              return (pair_begin(), pair.hpp; deleted at every exit);
//              m = dt_mem[cpu] (r7); nesting guard (m->active);
//              activity gate (dt_status, r9); dt_globals (r8); strtok()'s
//              position cleared (it lasts for the firing); then the
//              firing's state (firing_state()): timestamp (only when a
//              clause records a firing or reads it), arguments for the
//              context kind, clause-locals zeroed
//   ECBs       per spec.ecbs: EPID (fixed or dt_epids_<n>[m->filter]),
//              scratch reset, the clause (codegen_action.cc), and its
//              fault path: dt_emit_fault, or the fault subprogram when
//              dtrace:::ERROR has clauses
//   early predicate  one ECB with a fixed EPID whose predicate reads none
//              of the firing's state (predicate_is_early()): the predicate
//              runs before firing_state(), so that a false one costs the
//              gate and itself only
//   each ECB   skipped once exit() ran (the state left ACTIVE / INACTIVE)
//   epilogue   BEGIN: ACTIVE unless exit() ran; END: STOPPED; m->active = 0
//
// The fault subprogram (a BPF-to-BPF call, r1 = ctx, r2 = m) runs ERROR's
// clauses with arg1..arg5 = EPID, action, DIF offset, code, illval (the
// probe's own arguments saved in m->regs and restored, and strtok()'s
// position in m->strtok_outer), then emits the
// fault sample: ERROR's firings come first in the buffer, as in fire.cc.
// A fault in an ERROR clause counts a double error (dt_cpustate) and ends
// that clause.
#include "codegen.hpp"
#include "pair.hpp"

#include <dtrace/plugin.h>

#include <cstddef>
#include <cstdint>

namespace dt::engines::bpf {

namespace {
constexpr uint32_t ENGINE_CODE = UINT32_MAX; // clause_starts: engine's own code
}

void codegen::refuse(const std::string &what) const
{
	throw translate_error("bpf engine: line " + std::to_string(cur_line_) + ": " + what);
}

void codegen::zero_frame()
{
	for (int16_t off = -8; off >= FP_LOWEST; off = static_cast<int16_t>(off - 8))
		a.st_imm(BPF_DW, BPF_REG_10, off, 0);
}

void codegen::mem_off_ptr(int reg, int32_t off)
{
	a.mov_reg(reg, BPF_REG_7);
	if (off != 0)
		a.alu_imm(BPF_ADD, reg, off);
}

// dst = map fd's entry 0 (a u32 key on the stack), or jump to fail.
void codegen::lookup0(int fd, int dst)
{
	(void)dst;
	a.st_imm(BPF_W, BPF_REG_10, FP_T1, 0);
	a.ld_map(BPF_REG_1, fd);
	a.mov_reg(BPF_REG_2, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_2, FP_T1);
	a.call_helper(BPF_FUNC_map_lookup_elem);
}

void codegen::cpustate_add(int32_t field_off)
{
	int skip = a.label();
	lookup0(fds_.cpustate, BPF_REG_0);
	a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, skip);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_0, static_cast<int16_t>(field_off));
	a.alu_imm(BPF_ADD, BPF_REG_1, 1);
	a.stx(BPF_DW, BPF_REG_0, static_cast<int16_t>(field_off), BPF_REG_1);
	a.bind(skip);
}

// bpf_probe_read_kernel(dst, size, src) between map memory regions.
void codegen::copy_mem(int dst_reg, int src_reg, uint32_t size)
{
	if (dst_reg != BPF_REG_1)
		a.mov_reg(BPF_REG_1, dst_reg);
	if (src_reg != BPF_REG_3)
		a.mov_reg(BPF_REG_3, src_reg);
	a.mov_imm(BPF_REG_2, static_cast<int32_t>(size));
	a.call_helper(BPF_FUNC_probe_read_kernel);
}

// reg = pointer to size bytes of m->scratch at the tagged address in FP_T1
// (faults NOSCRATCH when it does not fit: it always does for addresses
// dt_alloc returned).
void codegen::scratch_ptr(int reg, uint32_t size)
{
	a.ldx(BPF_DW, reg, BPF_REG_10, FP_T1);
	a.alu_imm(BPF_AND, reg, DT_BPF_SCRATCH_SIZE - 1);
	int ok = a.label();
	a.jcc_imm(BPF_JLE, reg, static_cast<int32_t>(DT_BPF_SCRATCH_SIZE - size), ok);
	set_fault(DTRACEFLT_NOSCRATCH, 0, -1);
	a.bind(ok);
	a.alu_reg(BPF_ADD, reg, BPF_REG_7);
	a.alu_imm(BPF_ADD, reg, DT_M(scratch));
}

// An inline fault: code, illval and (pc >= 0) the DIF offset; then the
// ECB's fault path.
void codegen::set_fault(uint32_t code, uint64_t illval, int64_t pc, bool always)
{
	a.st_imm(BPF_W, BPF_REG_7, DT_M(fault.code), static_cast<int32_t>(code));
	if (illval <= INT32_MAX) {
		a.st_imm(BPF_DW, BPF_REG_7, DT_M(fault.illval), static_cast<int32_t>(illval));
	} else {
		a.ld_imm64(BPF_REG_1, illval);
		a.stx(BPF_DW, BPF_REG_7, DT_M(fault.illval), BPF_REG_1);
	}
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(pc), static_cast<int32_t>(pc));
	if (always) {
		// A conditional jump, so that the code after it, which the
		// fault makes dead, is not "unreachable" to the verifier's CFG
		// check (the verifier then prunes it by value).
		a.mov_imm(BPF_REG_1, 1);
		a.jcc_imm(BPF_JNE, BPF_REG_1, 0, fault_);
	} else {
		a.ja(fault_);
	}
}

void codegen::check_fault()
{
	a.ldx(BPF_W, BPF_REG_1, BPF_REG_7, DT_M(fault.code));
	a.jcc_imm(BPF_JNE, BPF_REG_1, 0, fault_);
}

void codegen::zero_locals()
{
	// Clause-locals are reached at constant offsets (BPF's 16-bit field).
	static_assert(offsetof(struct dt_bpf_mem, locals) + DT_BPF_LOCALS_SIZE <= 32767);
	for (auto [id, off] : l_.local_slots) {
		const variable *v = nullptr;
		for (const variable &x : p_.variables)
			if (x.id == id && x.scope == DIFV_SCOPE_LOCAL && x.kind == DIFV_KIND_SCALAR)
				v = &x;
		uint32_t n = 8;
		if (v != nullptr && var_byref(v->type))
			n = v->type.dtdt_kind == DIF_TYPE_STRING
				    ? 16
				    : 8 + ((var_refsize(v->type, l_.strsize) + 7) & ~7u);
		for (uint32_t k = 0; k < n; k += 8)
			a.st_imm(BPF_DW, BPF_REG_7, static_cast<int16_t>(DT_M(locals) + off + k),
				 0);
	}
}

// Whether any DIF object of the probe's clauses (ERROR's included) loads
// one of the built-in variables for which want(id) holds.
bool codegen::clauses_use(bool (*want)(uint32_t op, uint32_t id)) const
{
	auto scan = [&](const dt::difo &d) {
		for (dif_instr_t in : d.text) {
			uint32_t op = DIF_INSTR_OP(in);
			if (op == DIF_OP_LDGS && want(op, DIF_INSTR_VAR(in)))
				return true;
			if (op == DIF_OP_LDGA && want(op, DIF_INSTR_R1(in)))
				return true;
		}
		return false;
	};
	for (const auto *list : {&spec_.ecbs, &spec_.errors})
		for (const ecb_ref &e : *list) {
			if (e.clause >= p_.clauses.size())
				continue;
			const clause &c = p_.clauses[e.clause];
			if (c.predicate && scan(*c.predicate))
				return true;
			for (const action &act : c.actions) {
				for (const record &r : act.args)
					if (scan(r.expr))
						return true;
				for (const record &r : act.keys)
					if (scan(r.expr))
						return true;
			}
		}
	return false;
}

namespace {

// Built-in variables that the prologue's first part provides (m, the EPID,
// the CPU) or that the library computes: a predicate that reads only these
// (and globals, thread-locals, associative arrays) may run before the
// firing's state (arguments, errno, timestamp, clause-locals) is set.
bool early_builtin(uint32_t id)
{
	switch (id) {
	case DIF_VAR_PID:
	case DIF_VAR_TID:
	case DIF_VAR_PPID:
	case DIF_VAR_UID:
	case DIF_VAR_GID:
	case DIF_VAR_EXECNAME:
	case DIF_VAR_CURTHREAD:
	case DIF_VAR_EPID:
	case DIF_VAR_ID:
	case DIF_VAR_PROBEPROV:
	case DIF_VAR_PROBEMOD:
	case DIF_VAR_PROBEFUNC:
	case DIF_VAR_PROBENAME:
	case DIF_VAR_ZONENAME: return true;
	default: return id >= DIF_VAR_OTHER_UBASE; // a user global
	}
}

} // namespace

bool codegen::predicate_is_early() const
{
	if (spec_.ecbs.size() != 1 || spec_.ecbs[0].epid_map_fd >= 0 ||
	    spec_.ecbs[0].clause >= p_.clauses.size())
		return false;
	const clause &c = p_.clauses[spec_.ecbs[0].clause];
	if (!c.predicate)
		return false;
	for (dif_instr_t in : c.predicate->text) {
		switch (DIF_INSTR_OP(in)) {
		case DIF_OP_LDGS:
			if (!early_builtin(DIF_INSTR_VAR(in)))
				return false;
			break;
		case DIF_OP_LDGA:
		case DIF_OP_LDLS:
		case DIF_OP_STLS: return false;
		default: break;
		}
	}
	return true;
}

// Whether a firing reads the clock: a clause (ERROR's included) records a
// firing (its header holds the timestamp) or reads `timestamp`.
bool codegen::needs_clock() const
{
	for (const auto *list : {&spec_.ecbs, &spec_.errors})
		for (const ecb_ref &e : *list)
			if (e.clause < p_.clauses.size() && p_.clauses[e.clause].records_firing())
				return true;
	return clauses_use([](uint32_t op, uint32_t id) {
		return op == DIF_OP_LDGS && id == DIF_VAR_TIMESTAMP;
	});
}

// The firing's state, for the clauses: timestamp, arguments, errno,
// clause-locals, the user entry's return address.
void codegen::firing_state()
{
	// The firing's timestamp: for firings (their header) and timestamp;
	// a fault path reads the clock itself when this does not (ecb()).
	if (clock_) {
		a.call_helper(BPF_FUNC_ktime_get_ns);
		a.stx(BPF_DW, BPF_REG_7, DT_M(timestamp), BPF_REG_0);
	}
	args_for_ctx();
	zero_locals();
	user_entry_return();
}

// m->filter from the provider's filter program (plugin.h ABI 1.6; its
// steps checked by attach.cc filter_steps_problem()): the accumulator is
// m->filter, the stack m->regs[0..DT_BPF_FILTER_STACK) (free until the
// clauses run), a load's bytes land in FP_T1. DROP, or a load that
// faults, leaves the key at UINT32_MAX, which no EPID table holds.
void codegen::filter_program()
{
	steps_program(spec_.filter_steps, DT_M(filter), UINT32_MAX);
}

// The same for an argument's program (plugin.h ABI 1.9): the accumulator
// is the argument, which DROP or a faulting load leave 0.
void codegen::arg_program()
{
	if (spec_.arg_steps.empty() || spec_.arg_steps_index < 0 ||
	    spec_.arg_steps_index >= DT_BPF_NARGS)
		return;
	steps_program(spec_.arg_steps, static_cast<int16_t>(DT_M(args) + 8 * spec_.arg_steps_index),
		      0);
}

void codegen::steps_program(const std::vector<std::array<int64_t, 3>> &steps, int16_t acc,
			    uint64_t dropped)
{
	static_assert(DT_BPF_FILTER_STACK <= 8, "the stack lives in m->regs");
	std::vector<int> at(steps.size() + 1);
	for (int &l : at)
		l = a.label();
	int drop = a.label(), done = a.label();
	auto acc_to = [&](int reg) { a.ldx(BPF_DW, reg, BPF_REG_7, acc); };
	auto acc_from = [&](int reg) { a.stx(BPF_DW, BPF_REG_7, acc, reg); };
	auto slot = [](int d) { return static_cast<int16_t>(DT_M(regs) + 8 * d); };
	int depth = 0;
	std::vector<int> depth_at(steps.size() + 1, -1);
	depth_at[0] = 0;
	a.st_imm(BPF_DW, BPF_REG_7, acc, 0);
	for (size_t i = 0; i < steps.size(); i++) {
		a.bind(at[i]);
		const auto &[op, arg, imm] = steps[i];
		if (depth_at[i] >= 0)
			depth = depth_at[i];
		int next_depth = depth;
		switch (op) {
		case DT_BPF_FOP_ARG:
			raw_arg(BPF_REG_1, static_cast<int32_t>(arg));
			acc_from(BPF_REG_1);
			break;
		case DT_BPF_FOP_CONST:
			a.ld_imm64(BPF_REG_1, static_cast<uint64_t>(imm));
			acc_from(BPF_REG_1);
			break;
		case DT_BPF_FOP_LOAD: {
			static const int size_of[9] = {0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW};
			acc_to(BPF_REG_3);
			if (imm != 0)
				a.alu_imm(BPF_ADD, BPF_REG_3, static_cast<int32_t>(imm));
			a.mov_reg(BPF_REG_1, BPF_REG_10);
			a.alu_imm(BPF_ADD, BPF_REG_1, FP_T1);
			a.mov_imm(BPF_REG_2, arg);
			a.call_helper(BPF_FUNC_probe_read_kernel);
			a.jcc_imm(BPF_JNE, BPF_REG_0, 0, drop);
			a.ldx(size_of[arg], BPF_REG_1, BPF_REG_10, FP_T1);
			acc_from(BPF_REG_1);
			break;
		}
		case DT_BPF_FOP_PUSH:
			acc_to(BPF_REG_1);
			a.stx(BPF_DW, BPF_REG_7, slot(depth), BPF_REG_1);
			next_depth++;
			break;
		case DT_BPF_FOP_PEEK:
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, slot(depth - 1));
			acc_from(BPF_REG_1);
			break;
		case DT_BPF_FOP_ADD:
		case DT_BPF_FOP_OR:
			acc_to(BPF_REG_1);
			a.ldx(BPF_DW, BPF_REG_2, BPF_REG_7, slot(depth - 1));
			a.alu_reg(op == DT_BPF_FOP_ADD ? BPF_ADD : BPF_OR, BPF_REG_1, BPF_REG_2);
			acc_from(BPF_REG_1);
			next_depth--;
			break;
		case DT_BPF_FOP_AND:
			acc_to(BPF_REG_1);
			a.ld_imm64(BPF_REG_2, static_cast<uint64_t>(imm));
			a.alu_reg(BPF_AND, BPF_REG_1, BPF_REG_2);
			acc_from(BPF_REG_1);
			break;
		case DT_BPF_FOP_RSH:
		case DT_BPF_FOP_LSH:
			acc_to(BPF_REG_1);
			a.alu_imm(op == DT_BPF_FOP_RSH ? BPF_RSH : BPF_LSH, BPF_REG_1,
				  static_cast<int32_t>(imm));
			acc_from(BPF_REG_1);
			break;
		case DT_BPF_FOP_JEQ:
		case DT_BPF_FOP_JNE: {
			size_t to = i + 1 + static_cast<size_t>(arg);
			depth_at[to] = depth;
			acc_to(BPF_REG_1);
			a.ld_imm64(BPF_REG_2, static_cast<uint64_t>(imm));
			a.jcc_reg(op == DT_BPF_FOP_JEQ ? BPF_JEQ : BPF_JNE, BPF_REG_1, BPF_REG_2,
				  at[to]);
			break;
		}
		case DT_BPF_FOP_DROP:
			a.ja(drop);
			next_depth = -1;
			break;
		default: refuse("unknown filter step " + std::to_string(op));
		}
		if (next_depth >= 0)
			depth_at[i + 1] = next_depth;
	}
	a.bind(at[steps.size()]);
	a.ja(done);
	a.bind(drop);
	a.ld_imm64(BPF_REG_1, dropped);
	acc_from(BPF_REG_1);
	a.bind(done);
}

void codegen::args_for_ctx()
{
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(errno_), 0);
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(filter), 0);
	auto arg_off = [](int i) { return static_cast<int16_t>(DT_M(args) + 8 * i); };
	switch (spec_.ctx) {
	case ctx_kind::raw_tp:
		for (int i = 0; i < DT_BPF_NARGS; i++) {
			int32_t s = spec_.argmap[i];
			if (s >= 0 && static_cast<uint32_t>(s) < raw_count()) {
				raw_arg(BPF_REG_1, s);
				a.stx(BPF_DW, BPF_REG_7, arg_off(i), BPF_REG_1);
			} else {
				a.st_imm(BPF_DW, BPF_REG_7, arg_off(i), 0);
			}
		}
		if (!spec_.filter_steps.empty()) {
			filter_program();
		} else if (spec_.filter_arg >= 0 &&
			   static_cast<uint32_t>(spec_.filter_arg) < raw_count()) {
			raw_arg(BPF_REG_1, spec_.filter_arg);
			if (spec_.filter_shift != 0)
				a.alu_imm(BPF_RSH, BPF_REG_1,
					  static_cast<int32_t>(spec_.filter_shift & 63));
			a.ld_imm64(BPF_REG_2, spec_.filter_mask);
			a.alu_reg(BPF_AND, BPF_REG_1, BPF_REG_2);
			a.stx(BPF_DW, BPF_REG_7, DT_M(filter), BPF_REG_1);
		}
		arg_program();
		break;
	case ctx_kind::sys_enter: {
		// Reading pt_regs costs a helper call: only for clauses that
		// use arguments (the EPID table's filter is always needed).
		bool args = clauses_use([](uint32_t op, uint32_t id) {
			return (op == DIF_OP_LDGA && id == DIF_VAR_ARGS) ||
			       (id >= DIF_VAR_ARG0 && id <= DIF_VAR_ARG9);
		});
		if (!args) {
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, 8);
			a.stx(BPF_DW, BPF_REG_7, DT_M(filter), BPF_REG_1);
			for (int i = 0; i < DT_BPF_NARGS; i++)
				a.st_imm(BPF_DW, BPF_REG_7, arg_off(i), 0);
			break;
		}
		// struct pt_regs (x86_64) from r10 (56) to di (112): 64 bytes
		// into m->regs; syscall argument k lives at these words.
		static const int word[6] = {7, 6, 5, 0, 2, 1}; // di si dx r10 r8 r9
		a.ldx(BPF_DW, BPF_REG_3, BPF_REG_6, 0);
		a.alu_imm(BPF_ADD, BPF_REG_3, 56);
		mem_off_ptr(BPF_REG_1, DT_M(regs));
		a.mov_imm(BPF_REG_2, 64);
		a.call_helper(BPF_FUNC_probe_read_kernel);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, 8);
		a.stx(BPF_DW, BPF_REG_7, DT_M(filter), BPF_REG_1);
		for (int i = 0; i < DT_BPF_NARGS; i++) {
			int32_t s = spec_.argmap[i];
			if (s >= 0 && s < 6) {
				a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7,
				      static_cast<int16_t>(DT_M(regs) + 8 * word[s]));
				a.stx(BPF_DW, BPF_REG_7, arg_off(i), BPF_REG_1);
			} else {
				a.st_imm(BPF_DW, BPF_REG_7, arg_off(i), 0);
			}
		}
		break;
	}
	case ctx_kind::sys_exit: {
		for (int i = 2; i < DT_BPF_NARGS; i++)
			a.st_imm(BPF_DW, BPF_REG_7, arg_off(i), 0);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, 8);
		a.stx(BPF_DW, BPF_REG_7, arg_off(0), BPF_REG_1);
		a.stx(BPF_DW, BPF_REG_7, arg_off(1), BPF_REG_1);
		int done = a.label();
		a.jcc_imm(BPF_JSGE, BPF_REG_1, 0, done);
		a.jcc_imm(BPF_JSLT, BPF_REG_1, -4095, done);
		a.neg(BPF_REG_1);
		a.stx(BPF_DW, BPF_REG_7, DT_M(errno_), BPF_REG_1);
		a.bind(done);
		// m->filter = regs->orig_ax (offset 120)
		a.ldx(BPF_DW, BPF_REG_3, BPF_REG_6, 0);
		a.alu_imm(BPF_ADD, BPF_REG_3, 120);
		mem_off_ptr(BPF_REG_1, DT_M(filter));
		a.mov_imm(BPF_REG_2, 8);
		a.call_helper(BPF_FUNC_probe_read_kernel);
		break;
	}
	case ctx_kind::regs:
	case ctx_kind::regs_return: {
		// struct pt_regs (x86_64): di si dx cx r8 r9 at these offsets;
		// ax (the return value) at 80.
		static const int16_t reg_off[6] = {112, 104, 96, 88, 72, 64};
		for (int i = 0; i < DT_BPF_NARGS; i++)
			a.st_imm(BPF_DW, BPF_REG_7, arg_off(i), 0);
		if (spec_.ctx == ctx_kind::regs_return) {
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, 80);
			a.stx(BPF_DW, BPF_REG_7, arg_off(1), BPF_REG_1);
		} else {
			for (int i = 0; i < DT_BPF_NARGS; i++) {
				int32_t s = spec_.argmap[i];
				if (s >= 0 && s < 6) {
					a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, reg_off[s]);
					a.stx(BPF_DW, BPF_REG_7, arg_off(i), BPF_REG_1);
				}
			}
			if (spec_.user_entry)
				user_stack_args();
		}
		// kprobe_multi: which function fired, from the link's cookie.
		if (spec_.filter_cookie) {
			a.mov_reg(BPF_REG_1, BPF_REG_6);
			a.call_helper(BPF_FUNC_get_attach_cookie);
			a.stx(BPF_DW, BPF_REG_7, DT_M(filter), BPF_REG_0);
		}
		break;
	}
	case ctx_kind::usdt: usdt_args(); break;
	case ctx_kind::tp_record: {
		// The record's fields (attach.cc unsupported() checked them:
		// record_field_readable()), each as its argfmt says (plugin.h).
		for (int i = 0; i < DT_BPF_NARGS; i++)
			record_arg(i, spec_.argmap[i], spec_.argfmt[i]);
		if (spec_.errno_arg0) {
			int done = a.label();
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(0));
			a.jcc_imm(BPF_JSGE, BPF_REG_1, 0, done);
			a.jcc_imm(BPF_JSLT, BPF_REG_1, -4095, done);
			a.neg(BPF_REG_1);
			a.stx(BPF_DW, BPF_REG_7, DT_M(errno_), BPF_REG_1);
			a.bind(done);
		}
		break;
	}
	case ctx_kind::perf_event:
		for (int i = 0; i < DT_BPF_NARGS; i++)
			a.st_imm(BPF_DW, BPF_REG_7, arg_off(i), 0);
		a.mov_reg(BPF_REG_1, BPF_REG_6);
		a.mov_reg(BPF_REG_2, BPF_REG_7);
		a.call_sym("dt_perf_args");
		break;
	}
}

// A user function's entry (a uprobe on its first instruction): arguments
// 6 and on were passed on the stack, above the return address the call
// pushed (the SysV AMD64 ABI; illumos fasttrap_pid_getarg() reads them
// there too). One read of the words at sp + 8 into the m->regs scratch
// (zeroed by the helper if the stack cannot be read), then each into
// args[]. Only when a clause reads arguments.
void codegen::user_stack_args()
{
	constexpr int k_nstack = DT_BPF_NARGS - 6;
	static_assert(k_nstack > 0 && 8 * k_nstack <= 64, "m->regs holds the stack words");
	bool want = false;
	for (int i = 0; i < DT_BPF_NARGS; i++)
		want |= spec_.argmap[i] >= 6 && spec_.argmap[i] < DT_BPF_NARGS;
	want &= clauses_use([](uint32_t op, uint32_t id) {
		return (op == DIF_OP_LDGA && id == DIF_VAR_ARGS) ||
		       (id >= DIF_VAR_ARG0 && id <= DIF_VAR_ARG9);
	});
	if (!want)
		return;
	a.ldx(BPF_DW, BPF_REG_3, BPF_REG_6, 152); // pt_regs sp (x86_64)
	a.alu_imm(BPF_ADD, BPF_REG_3, 8);
	mem_off_ptr(BPF_REG_1, DT_M(regs));
	a.mov_imm(BPF_REG_2, 8 * k_nstack);
	a.call_helper(BPF_FUNC_probe_read_user);
	for (int i = 0; i < DT_BPF_NARGS; i++) {
		int32_t s = spec_.argmap[i];
		if (s < 6 || s >= DT_BPF_NARGS)
			continue;
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, static_cast<int16_t>(DT_M(regs) + 8 * (s - 6)));
		a.stx(BPF_DW, BPF_REG_7, static_cast<int16_t>(DT_M(args) + 8 * i), BPF_REG_1);
	}
}

// tp_record: args[i] from the record field at `off` (plugin.h argfmt):
//   value      a load of its size from the context, sign-extended if so
//   ADDR       the record's address plus off
//   DATA_LOC   the record's address plus the u32's low 16 bits
//   REL_LOC    the same, plus the end of the u32 (off + 4)
// The record's address is the context pointer: stored into args[i] and
// read back, it is a number the program may add to (a privileged
// program may store a pointer into a map value).
void codegen::record_arg(int i, int32_t off, uint32_t fmt)
{
	auto arg_off = static_cast<int16_t>(DT_M(args) + 8 * i);
	if (off < 0 || !record_field_readable(off, fmt, spec_.raw_nargs)) {
		a.st_imm(BPF_DW, BPF_REG_7, arg_off, 0);
		return;
	}
	auto at = static_cast<int16_t>(off);
	uint32_t n = DT_BPF_TP_SIZE_OF(fmt);
	uint32_t kinds = fmt & (DT_BPF_TP_ADDR | DT_BPF_TP_DATA_LOC | DT_BPF_TP_REL_LOC);
	if (kinds == 0) {
		static const int size_of[9] = {BPF_DW, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW};
		a.ldx(fmt == 0 ? BPF_DW : size_of[n], BPF_REG_1, BPF_REG_6, at);
		if ((fmt & DT_BPF_TP_SIGNED) != 0 && n < 8) {
			a.alu_imm(BPF_LSH, BPF_REG_1, static_cast<int32_t>(64 - 8 * n));
			a.alu_imm(BPF_ARSH, BPF_REG_1, static_cast<int32_t>(64 - 8 * n));
		}
		a.stx(BPF_DW, BPF_REG_7, arg_off, BPF_REG_1);
		return;
	}
	a.stx(BPF_DW, BPF_REG_7, arg_off, BPF_REG_6);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off);
	if (kinds == DT_BPF_TP_ADDR) {
		a.alu_imm(BPF_ADD, BPF_REG_1, off);
	} else {
		a.ldx(BPF_W, BPF_REG_2, BPF_REG_6, at);
		a.alu_imm(BPF_AND, BPF_REG_2, 0xffff);
		a.alu_reg(BPF_ADD, BPF_REG_1, BPF_REG_2);
		if (kinds == DT_BPF_TP_REL_LOC)
			a.alu_imm(BPF_ADD, BPF_REG_1, off + 4);
	}
	a.stx(BPF_DW, BPF_REG_7, arg_off, BPF_REG_1);
}

// A USDT site's arguments (probe_spec::usdt, plugin.h dt_usdt_arg_t): a
// constant, a register of the struct pt_regs context, or |size| bytes of
// user memory at a register plus a displacement (and an index register
// times a scale) (read into the argument's
// zeroed slot: an unreadable address leaves 0); then truncated to |size|
// bytes and sign- or zero-extended.
void codegen::usdt_args()
{
	// args[i] for i < DT_BPF_NARGS_USDT: args_hi follows args[].
	static_assert(DT_M(args_hi) == DT_M(args) + 8 * DT_BPF_NARGS);
	static_assert(k_usdt_nargs == DT_BPF_NARGS_USDT);
	auto arg_off = [](int i) { return static_cast<int16_t>(DT_M(args) + 8 * i); };
	for (int i = 0; i < DT_BPF_NARGS_USDT; i++) {
		const usdt_loc &u = spec_.usdt[static_cast<size_t>(i)];
		a.st_imm(BPF_DW, BPF_REG_7, arg_off(i), 0);
		int bytes = u.size < 0 ? -u.size : u.size;
		switch (u.kind) {
		case DT_USDT_ARG_CONST:
			a.ld_imm64(BPF_REG_1, static_cast<uint64_t>(u.value));
			a.stx(BPF_DW, BPF_REG_7, arg_off(i), BPF_REG_1);
			continue;
		case DT_USDT_ARG_REG: a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, u.reg); break;
		case DT_USDT_ARG_MEM:
			a.ldx(BPF_DW, BPF_REG_3, BPF_REG_6, u.reg);
			if (u.value != 0) {
				a.ld_imm64(BPF_REG_1, static_cast<uint64_t>(u.value));
				a.alu_reg(BPF_ADD, BPF_REG_3, BPF_REG_1);
			}
			if (u.scale != 0) { // + index * scale (a power of two)
				a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, u.index);
				a.alu_imm(BPF_LSH, BPF_REG_1, __builtin_ctz(u.scale));
				a.alu_reg(BPF_ADD, BPF_REG_3, BPF_REG_1);
			}
			mem_off_ptr(BPF_REG_1, arg_off(i));
			a.mov_imm(BPF_REG_2, bytes);
			a.call_helper(BPF_FUNC_probe_read_user);
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(i));
			break;
		default: continue;
		}
		if (bytes < 8) {
			int shift = 64 - 8 * bytes;
			a.alu_imm(BPF_LSH, BPF_REG_1, shift);
			a.alu_imm(u.size < 0 ? BPF_ARSH : BPF_RSH, BPF_REG_1, shift);
		}
		a.stx(BPF_DW, BPF_REG_7, arg_off(i), BPF_REG_1);
	}
}

// m->uentry_ret (dt_bpf_abi.h): on a function's first instruction the
// return address is at the user stack pointer (x86_64 pt_regs sp, offset
// 152); 0 everywhere else. Past a 16-bit offset, so through a pointer.
void codegen::user_entry_return()
{
	mem_off_ptr(BPF_REG_1, DT_M(uentry_ret));
	a.st_imm(BPF_DW, BPF_REG_1, 0, 0);
	if (spec_.user_entry) {
		a.mov_imm(BPF_REG_2, 8);
		a.ldx(BPF_DW, BPF_REG_3, BPF_REG_6, 152);
		a.call_helper(BPF_FUNC_probe_read_user);
	}
	// m->ktracer: the raw tracepoint's tracing machinery (spec_.tracer_text),
	// else none (ktracer[1], the first size, 0).
	mem_off_ptr(BPF_REG_1, DT_M(ktracer));
	a.st_imm(BPF_DW, BPF_REG_1, 8, 0);
	for (size_t i = 0; i < spec_.tracer_text.size() && i < DT_BPF_KTRACER; i++) {
		a.ld_imm64(BPF_REG_2, spec_.tracer_text[i].first);
		a.stx(BPF_DW, BPF_REG_1, static_cast<int16_t>(16 * i), BPF_REG_2);
		a.ld_imm64(BPF_REG_2, spec_.tracer_text[i].second);
		a.stx(BPF_DW, BPF_REG_1, static_cast<int16_t>(16 * i + 8), BPF_REG_2);
	}
	for (size_t i = spec_.tracer_text.size(); !spec_.tracer_text.empty() && i < DT_BPF_KTRACER;
	     i++)
		a.st_imm(BPF_DW, BPF_REG_1, static_cast<int16_t>(16 * i + 8), 0);
	// m->kfunc_ip: the probed kernel function's address (fbt), else 0.
	mem_off_ptr(BPF_REG_1, DT_M(kfunc_ip));
	a.st_imm(BPF_DW, BPF_REG_1, 0, 0);
	if (!spec_.kernel_func)
		return;
	a.mov_reg(BPF_REG_1, BPF_REG_6);
	a.call_helper(BPF_FUNC_get_func_ip);
	// A kretprobe may not know it (no kprobe running): 1, still nonzero.
	int known = a.label();
	a.jcc_imm(BPF_JNE, BPF_REG_0, 0, known);
	a.mov_imm(BPF_REG_0, 1);
	a.bind(known);
	mem_off_ptr(BPF_REG_1, DT_M(kfunc_ip));
	a.stx(BPF_DW, BPF_REG_1, 0, BPF_REG_0);
}

// Return at once unless the system call's number is one of
// spec.early_filters (sys_enter: raw argument 1; sys_exit: regs->orig_ax,
// read onto the stack).
void codegen::early_filter()
{
	if (spec_.early_filters.empty() ||
	    (spec_.ctx != ctx_kind::sys_enter && spec_.ctx != ctx_kind::sys_exit))
		return;
	int go = a.label();
	if (spec_.ctx == ctx_kind::sys_enter) {
		a.ldx(BPF_DW, BPF_REG_0, BPF_REG_6, 8);
	} else {
		a.ldx(BPF_DW, BPF_REG_3, BPF_REG_6, 0);
		a.alu_imm(BPF_ADD, BPF_REG_3, 120); // orig_ax
		a.mov_reg(BPF_REG_1, BPF_REG_10);
		a.alu_imm(BPF_ADD, BPF_REG_1, FP_T1);
		a.mov_imm(BPF_REG_2, 8);
		a.call_helper(BPF_FUNC_probe_read_kernel);
		a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, FP_T1);
	}
	for (uint32_t f : spec_.early_filters)
		a.jcc_imm(BPF_JEQ, BPF_REG_0, static_cast<int32_t>(f), go);
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
	a.bind(go);
}

uint32_t codegen::raw_count() const
{
	return spec_.pair_map_fd < 0 ? spec_.raw_nargs
				     : spec_.pair_begin_nargs + spec_.raw_nargs + 1;
}

void codegen::raw_arg(int reg, int32_t s)
{
	if (spec_.pair_map_fd < 0) {
		a.ldx(BPF_DW, reg, BPF_REG_6, static_cast<int16_t>(8 * s));
		return;
	}
	a.ldx(BPF_DW, reg, BPF_REG_10, FP_PAIR);
	a.ldx(BPF_DW, reg, reg, static_cast<int16_t>(offsetof(pair_value, raw) + 8 * s));
}

// The probe ends an interval (pair.hpp): its entry, or return at once;
// the end's raw arguments and the time since the begin written after the
// begin's; the entry's address at FP_PAIR (r8 until the prologue takes
// it for dt_globals).
void codegen::pair_begin()
{
	if (spec_.pair_map_fd < 0)
		return;
	int found = a.label();
	emit_pair_key(a, BPF_REG_6, spec_.pair_end_key, FP_T2);
	a.ld_map(BPF_REG_1, spec_.pair_map_fd);
	a.mov_reg(BPF_REG_2, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_2, FP_T2);
	a.call_helper(BPF_FUNC_map_lookup_elem);
	a.jcc_imm(BPF_JNE, BPF_REG_0, 0, found);
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
	a.bind(found);
	a.stx(BPF_DW, BPF_REG_10, FP_PAIR, BPF_REG_0);
	a.mov_reg(BPF_REG_8, BPF_REG_0);
	const uint32_t nb = spec_.pair_begin_nargs, ne = spec_.raw_nargs;
	auto raw_off = [](uint32_t k) {
		return static_cast<int16_t>(offsetof(pair_value, raw) + 8 * k);
	};
	for (uint32_t j = 0; j < ne && nb + j < DT_BPF_PAIR_NARGS; j++) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, static_cast<int16_t>(8 * j));
		a.stx(BPF_DW, BPF_REG_8, raw_off(nb + j), BPF_REG_1);
	}
	if (nb + ne < DT_BPF_PAIR_NARGS) {
		a.call_helper(BPF_FUNC_ktime_get_ns);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_8,
		      static_cast<int16_t>(offsetof(pair_value, time)));
		a.alu_reg(BPF_SUB, BPF_REG_0, BPF_REG_1);
		a.stx(BPF_DW, BPF_REG_8, raw_off(nb + ne), BPF_REG_0);
	}
}

// The entry is done with: on every way out of the program after
// pair_begin() found it.
void codegen::pair_forget()
{
	if (spec_.pair_map_fd < 0)
		return;
	emit_pair_key(a, BPF_REG_6, spec_.pair_end_key, FP_T2);
	a.ld_map(BPF_REG_1, spec_.pair_map_fd);
	a.mov_reg(BPF_REG_2, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_2, FP_T2);
	a.call_helper(BPF_FUNC_map_delete_elem);
}

void codegen::prologue()
{
	int exit0 = a.label(), nested = a.label();
	out_ = a.label();

	a.mov_reg(BPF_REG_6, BPF_REG_1);
	early_filter();
	pair_begin();
	a.call_helper(BPF_FUNC_get_smp_processor_id);
	if (spec_.cpu >= 0) // option cpu
		a.jcc_imm(BPF_JNE, BPF_REG_0, spec_.cpu, exit0);
	a.stx(BPF_W, BPF_REG_10, FP_KEY, BPF_REG_0);
	a.ld_map(BPF_REG_1, fds_.mem);
	a.mov_reg(BPF_REG_2, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_2, FP_KEY);
	a.call_helper(BPF_FUNC_map_lookup_elem);
	a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, exit0);
	a.mov_reg(BPF_REG_7, BPF_REG_0);
	a.ldx(BPF_W, BPF_REG_1, BPF_REG_7, DT_M(active));
	a.jcc_imm(BPF_JNE, BPF_REG_1, 0, nested);

	if (spec_.pid >= 0) { // before the nesting guard is taken
		a.call_helper(BPF_FUNC_get_current_pid_tgid);
		a.alu_imm(BPF_RSH, BPF_REG_0, 32);
		a.jcc_imm(BPF_JNE, BPF_REG_0, spec_.pid, exit0);
	}
	lookup0(fds_.status, BPF_REG_9);
	a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, exit0);
	a.mov_reg(BPF_REG_9, BPF_REG_0);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_9, 0);
	switch (spec_.when) {
	case gate::probe: a.jcc_imm(BPF_JNE, BPF_REG_1, DT_BPF_ACTIVE, exit0); break;
	case gate::begin: a.jcc_imm(BPF_JNE, BPF_REG_1, DT_BPF_INACTIVE, exit0); break;
	case gate::end: {
		int ok = a.label();
		a.jcc_imm(BPF_JEQ, BPF_REG_1, DT_BPF_ACTIVE, ok);
		a.jcc_imm(BPF_JNE, BPF_REG_1, DT_BPF_DRAINING, exit0);
		a.bind(ok);
		break;
	}
	case gate::error: break;
	}
	lookup0(fds_.globals, BPF_REG_8);
	a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, exit0);
	a.mov_reg(BPF_REG_8, BPF_REG_0);

	a.st_imm(BPF_W, BPF_REG_7, DT_M(active), 1);
	a.ldx(BPF_W, BPF_REG_1, BPF_REG_10, FP_KEY);
	a.stx(BPF_W, BPF_REG_7, DT_M(cpu), BPF_REG_1);
	a.st_imm(BPF_W, BPF_REG_7, DT_M(fault.code), 0);
	// strtok()'s position lives for the firing, across its clauses
	// (illumos' mstate dtms_strtok), not for one clause.
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(strtok_addr), 0);
	zero_frame();
	clock_ = needs_clock();
	early_ = predicate_is_early();
	if (!clock_)
		a.st_imm(BPF_DW, BPF_REG_7, DT_M(timestamp), 0);
	if (!early_)
		firing_state();

	// The exits, placed after the epilogue by generate().
	exit0_ = exit0;
	nested_ = nested;
}

void codegen::ecb(const ecb_ref &e, bool in_error)
{
	if (e.clause >= p_.clauses.size())
		throw translate_error(
			"bpf engine: internal error: ECB of a clause that does not exist");
	const clause &c = p_.clauses[e.clause];
	cur_ = &c;
	cur_line_ = c.line;
	clause_starts.emplace_back(a.pc(), e.clause);
	int next = a.label();
	fault_ = a.label();

	// exit() in an earlier clause of this firing moved the state on
	// (ACTIVE or, in BEGIN, INACTIVE -> DRAINING): as illumos
	// dtrace_probe(), the later clauses do not run; END and ERROR
	// clauses do.
	if (!in_error && (spec_.when == gate::probe || spec_.when == gate::begin)) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_9, 0);
		a.jcc_imm(BPF_JNE, BPF_REG_1,
			  spec_.when == gate::probe ? DT_BPF_ACTIVE : DT_BPF_INACTIVE, next);
	}

	if (e.epid_map_fd < 0) {
		a.st_imm(BPF_DW, BPF_REG_7, DT_M(epid), static_cast<int32_t>(e.epid));
	} else {
		const uint32_t stride = e.epid_map_stride ? e.epid_map_stride : 1;
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(filter));
		a.jcc_imm(BPF_JGE, BPF_REG_1, static_cast<int32_t>(e.epid_map_entries / stride),
			  next);
		if (stride != 1)
			a.alu_imm(BPF_MUL, BPF_REG_1, static_cast<int32_t>(stride));
		if (e.epid_map_index != 0)
			a.alu_imm(BPF_ADD, BPF_REG_1, static_cast<int32_t>(e.epid_map_index));
		a.stx(BPF_W, BPF_REG_10, FP_T1, BPF_REG_1);
		a.ld_map(BPF_REG_1, e.epid_map_fd);
		a.mov_reg(BPF_REG_2, BPF_REG_10);
		a.alu_imm(BPF_ADD, BPF_REG_2, FP_T1);
		a.call_helper(BPF_FUNC_map_lookup_elem);
		a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, next);
		a.ldx(BPF_W, BPF_REG_1, BPF_REG_0, 0);
		a.jcc_imm(BPF_JEQ, BPF_REG_1, 0, next);
		a.stx(BPF_DW, BPF_REG_7, DT_M(epid), BPF_REG_1);
	}
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(scratch_used), 0);
	mem_off_ptr(BPF_REG_1, DT_M(wb_map)); // beyond a 16-bit offset
	a.st_imm(BPF_DW, BPF_REG_1, 0, 0);

	if (early_ && !in_error) {
		// The predicate first (predicate_is_early()), then the state
		// the rest of the clause reads.
		set_action(0);
		gen_difo(*c.predicate);
		a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, next);
		firing_state();
		skip_predicate_ = true;
	}
	clause_body(c, next);
	skip_predicate_ = false;

	if (a.used(fault_)) {
		a.ja(next);
		a.bind(fault_);
		if (in_error) {
			cpustate_add(
				static_cast<int32_t>(offsetof(struct dt_bpf_cpustate, dbl_errors)));
			a.st_imm(BPF_W, BPF_REG_7, DT_M(fault.code), 0);
		} else {
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(pc));
			a.stx(BPF_DW, BPF_REG_7, DT_M(fault.offset), BPF_REG_1);
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(action));
			a.stx(BPF_W, BPF_REG_7, DT_M(fault.action), BPF_REG_1);
			if (!clock_) { // for ERROR's clauses, as any firing's
				a.call_helper(BPF_FUNC_ktime_get_ns);
				a.stx(BPF_DW, BPF_REG_7, DT_M(timestamp), BPF_REG_0);
			}
			if (!spec_.errors.empty()) {
				if (fsub_ < 0)
					fsub_ = a.label();
				a.mov_reg(BPF_REG_1, BPF_REG_6);
				a.mov_reg(BPF_REG_2, BPF_REG_7);
				a.call_label(fsub_);
			} else {
				a.mov_reg(BPF_REG_1, BPF_REG_7);
				a.call_sym("dt_emit_fault");
				a.st_imm(BPF_W, BPF_REG_7, DT_M(fault.code), 0);
			}
		}
	}
	a.bind(next);
	// Every path out of the clause (predicate false, no EPID, done,
	// faulted) continues in one state, so the verifier prunes the paths
	// of the clauses before instead of multiplying them: without it 100
	// aggregating clauses exceed its 1M-instruction budget.
	zero_frame();
	for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
		a.mov_imm(r, 0);
}

void codegen::fault_subprogram(int entry)
{
	a.bind(entry);
	clause_starts.emplace_back(a.pc(), ENGINE_CODE);
	int emit = a.label();
	a.mov_reg(BPF_REG_6, BPF_REG_1);
	a.mov_reg(BPF_REG_7, BPF_REG_2);
	zero_frame();
	auto arg_off = [](int i) { return static_cast<int16_t>(DT_M(args) + 8 * i); };
	auto reg_off = [](int i) { return static_cast<int16_t>(DT_M(regs) + 8 * i); };
	for (int i = 0; i < 6; i++) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(i));
		a.stx(BPF_DW, BPF_REG_7, reg_off(i), BPF_REG_1);
	}
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(epid));
	a.stx(BPF_DW, BPF_REG_7, reg_off(6), BPF_REG_1);
	a.st_imm(BPF_DW, BPF_REG_7, arg_off(0), 0);
	a.stx(BPF_DW, BPF_REG_7, arg_off(1), BPF_REG_1);
	a.ldx(BPF_W, BPF_REG_1, BPF_REG_7, DT_M(fault.action));
	a.stx(BPF_DW, BPF_REG_7, arg_off(2), BPF_REG_1);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(fault.offset));
	a.stx(BPF_DW, BPF_REG_7, arg_off(3), BPF_REG_1);
	a.ldx(BPF_W, BPF_REG_1, BPF_REG_7, DT_M(fault.code));
	a.stx(BPF_DW, BPF_REG_7, arg_off(4), BPF_REG_1);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(fault.illval));
	a.stx(BPF_DW, BPF_REG_7, arg_off(5), BPF_REG_1);
	a.st_imm(BPF_W, BPF_REG_7, DT_M(fault.code), 0);
	// ERROR's firing has a strtok() position of its own; the faulting
	// firing's continues after it.
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(strtok_addr));
	a.stx(BPF_DW, BPF_REG_7, DT_M(strtok_outer), BPF_REG_1);
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(strtok_addr), 0);

	lookup0(fds_.globals, BPF_REG_8);
	a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, emit);
	a.mov_reg(BPF_REG_8, BPF_REG_0);
	for (const ecb_ref &e : spec_.errors)
		ecb(e, true);
	clause_starts.emplace_back(a.pc(), ENGINE_CODE);

	a.bind(emit);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(strtok_outer));
	a.stx(BPF_DW, BPF_REG_7, DT_M(strtok_addr), BPF_REG_1);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(4));
	a.stx(BPF_W, BPF_REG_7, DT_M(fault.code), BPF_REG_1);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(2));
	a.stx(BPF_W, BPF_REG_7, DT_M(fault.action), BPF_REG_1);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(3));
	a.stx(BPF_DW, BPF_REG_7, DT_M(fault.offset), BPF_REG_1);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(5));
	a.stx(BPF_DW, BPF_REG_7, DT_M(fault.illval), BPF_REG_1);
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, arg_off(1));
	a.stx(BPF_DW, BPF_REG_7, DT_M(epid), BPF_REG_1);
	a.mov_reg(BPF_REG_1, BPF_REG_7);
	a.call_sym("dt_emit_fault");
	for (int i = 0; i < 6; i++) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, reg_off(i));
		a.stx(BPF_DW, BPF_REG_7, arg_off(i), BPF_REG_1);
	}
	a.st_imm(BPF_W, BPF_REG_7, DT_M(fault.code), 0);
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
}

void codegen::generate()
{
	if (spec_.when == gate::error)
		throw translate_error("bpf engine: internal error: dtrace:::ERROR has no "
				      "program of its own (its clauses run on faults)");
	prologue();
	for (const ecb_ref &e : spec_.ecbs)
		ecb(e, false);
	clause_starts.emplace_back(a.pc(), ENGINE_CODE);
	if (spec_.when == gate::begin) {
		int skip = a.label();
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_9, 0);
		a.jcc_imm(BPF_JNE, BPF_REG_1, DT_BPF_INACTIVE, skip);
		a.st_imm(BPF_DW, BPF_REG_9, 0, DT_BPF_ACTIVE);
		a.bind(skip);
	} else if (spec_.when == gate::end) {
		a.st_imm(BPF_DW, BPF_REG_9, 0, DT_BPF_STOPPED);
	}
	a.bind(out_);
	a.st_imm(BPF_W, BPF_REG_7, DT_M(active), 0);
	a.bind(exit0_);
	pair_forget();
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
	a.bind(nested_);
	pair_forget();
	a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(nested_drops));
	a.alu_imm(BPF_ADD, BPF_REG_1, 1);
	a.stx(BPF_DW, BPF_REG_7, DT_M(nested_drops), BPF_REG_1);
	cpustate_add(static_cast<int32_t>(offsetof(struct dt_bpf_cpustate, nested)));
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
	if (fsub_ >= 0)
		fault_subprogram(fsub_);
}

} // namespace dt::engines::bpf
