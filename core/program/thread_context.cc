// SPDX-License-Identifier: MIT
//
// thread_context.cc - clause::reads_thread(): does a clause look at the
// thread its probe interrupted?
//
// In illumos a profile or tick probe fires in the interrupt that stopped
// whatever thread ran on that CPU, and pid, execname, self->, ustack() and
// the rest describe that thread (the Guide's "profile Provider": often
// pid 0, sched). The user engine fires tick-N in dtrace's own process,
// where they would describe dtrace: a clause that reads them needs a
// kernel engine (engine_choice.cc).
#include <dtrace/program.hpp>

#include <algorithm>
#include <array>

namespace dt {
namespace {

// The built-in variables of the current thread (illumos dtrace_dif_variable()
// reads them from curthread / curproc).
constexpr std::array k_thread_vars = {
	DIF_VAR_CURTHREAD,   DIF_VAR_VTIMESTAMP, DIF_VAR_STACKDEPTH, DIF_VAR_CALLER,
	DIF_VAR_PID,	     DIF_VAR_TID,	 DIF_VAR_EXECNAME,   DIF_VAR_ZONENAME,
	DIF_VAR_USTACKDEPTH, DIF_VAR_UCALLER,	 DIF_VAR_PPID,	     DIF_VAR_UID,
	DIF_VAR_GID,	     DIF_VAR_ERRNO,	 DIF_VAR_NSPID,	     DIF_VAR_NSTID,
	DIF_VAR_NSPPID,	     DIF_VAR_CGROUP,	 DIF_VAR_UREGS,
};

bool reads_thread_var(const difo &d)
{
	for (dif_instr_t i : d.text) {
		switch (DIF_INSTR_OP(i)) {
		case DIF_OP_LDTS:
		case DIF_OP_STTS:
		case DIF_OP_LDTA:
		case DIF_OP_LDTAA:
		case DIF_OP_STTAA: return true; // self->: the thread's own variables
		case DIF_OP_LDGS:
		case DIF_OP_LDGA:
			if (std::ranges::find(k_thread_vars, DIF_INSTR_VAR(i)) !=
			    k_thread_vars.end())
				return true;
			break;
		default: break;
		}
	}
	return false;
}

bool stack_or_address(const record &r)
{
	using k = value_type::kind;
	switch (r.type.k) {
	case k::stack:
	case k::ustack:
	case k::sym:
	case k::mod:
	case k::usym:
	case k::umod:
	case k::uaddr: return true;
	default: return reads_thread_var(r.expr);
	}
}

} // namespace

bool clause::reads_thread() const
{
	if (predicate && reads_thread_var(*predicate))
		return true;
	for (const action &a : actions) {
		switch (a.kind) {
		case DTRACEACT_STACK:
		case DTRACEACT_USTACK:
		case DTRACEACT_JSTACK:
		case DTRACEACT_SYM:
		case DTRACEACT_MOD:
		case DTRACEACT_USYM:
		case DTRACEACT_UMOD:
		case DTRACEACT_UADDR: return true;
		default: break;
		}
		if (std::ranges::any_of(a.args, stack_or_address) ||
		    std::ranges::any_of(a.keys, stack_or_address))
			return true;
	}
	return false;
}

} // namespace dt
