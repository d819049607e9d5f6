// SPDX-License-Identifier: MIT
//
// destructive.cc - program::destructive(): does the program need -w?
//
// illumos decides this in the kernel when the enabling is made
// (dtrace_ecb_action_add() for destructive actions, the DIF validator for
// copyout()/copyoutstr()), and dtrace_go() turns the kernel's EACCES into
// "Destructive actions not allowed". Every engine checks it the same way
// at go(), so the compiler accepts the program and `dtrace` reports
// "could not enable tracing: Destructive actions not allowed".
#include <dtrace/program.hpp>

namespace dt {
namespace {

bool calls_destructive_subr(const difo &d)
{
	for (dif_instr_t i : d.text)
		if (DIF_INSTR_OP(i) == DIF_OP_CALL &&
		    (DIF_INSTR_SUBR(i) == DIF_SUBR_COPYOUT ||
		     DIF_INSTR_SUBR(i) == DIF_SUBR_COPYOUTSTR))
			return true;
	return false;
}

} // namespace

bool program::destructive() const
{
	for (const clause &c : clauses) {
		if (c.predicate && calls_destructive_subr(*c.predicate))
			return true;
		for (const action &a : c.actions) {
			if (DTRACEACT_ISDESTRUCTIVE(a.kind))
				return true;
			for (const record &r : a.args)
				if (calls_destructive_subr(r.expr))
					return true;
			for (const record &r : a.keys)
				if (calls_destructive_subr(r.expr))
					return true;
		}
	}
	return false;
}

} // namespace dt
