// SPDX-License-Identifier: MIT
//
// compiler/sema/builtins.cc - the tables of builtins.hpp.
#include "builtins.hpp"

extern "C" {
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/dif.h>
}

#include "dif_isa.h"

#include <cstring>
#include <initializer_list>

namespace dt::compiler {

namespace {

const builtin_var k_vars[] = {
	{"curthread", DIF_VAR_CURTHREAD, "struct task_struct *"},
	{"timestamp", DIF_VAR_TIMESTAMP, "uint64_t"},
	{"vtimestamp", DIF_VAR_VTIMESTAMP, "uint64_t"},
	{"ipl", DIF_VAR_IPL, "uint_t"},
	{"epid", DIF_VAR_EPID, "uint_t"},
	{"id", DIF_VAR_ID, "uint_t"},
	{"arg0", DIF_VAR_ARG0, "int64_t"},
	{"arg1", DIF_VAR_ARG1, "int64_t"},
	{"arg2", DIF_VAR_ARG2, "int64_t"},
	{"arg3", DIF_VAR_ARG3, "int64_t"},
	{"arg4", DIF_VAR_ARG4, "int64_t"},
	{"arg5", DIF_VAR_ARG5, "int64_t"},
	{"arg6", DIF_VAR_ARG6, "int64_t"},
	{"arg7", DIF_VAR_ARG7, "int64_t"},
	{"arg8", DIF_VAR_ARG8, "int64_t"},
	{"arg9", DIF_VAR_ARG9, "int64_t"},
	{"stackdepth", DIF_VAR_STACKDEPTH, "uint32_t"},
	{"caller", DIF_VAR_CALLER, "uintptr_t"},
	{"probeprov", DIF_VAR_PROBEPROV, "string"},
	{"probemod", DIF_VAR_PROBEMOD, "string"},
	{"probefunc", DIF_VAR_PROBEFUNC, "string"},
	{"probename", DIF_VAR_PROBENAME, "string"},
	{"pid", DIF_VAR_PID, "pid_t"},
	{"tid", DIF_VAR_TID, "id_t"},
	{"execname", DIF_VAR_EXECNAME, "string"},
	{"zonename", DIF_VAR_ZONENAME, "string"},
	{"walltimestamp", DIF_VAR_WALLTIMESTAMP, "int64_t"},
	{"ustackdepth", DIF_VAR_USTACKDEPTH, "uint32_t"},
	{"ucaller", DIF_VAR_UCALLER, "uint64_t"},
	{"ppid", DIF_VAR_PPID, "pid_t"},
	{"uid", DIF_VAR_UID, "uid_t"},
	{"gid", DIF_VAR_GID, "gid_t"},
	{"errno", DIF_VAR_ERRNO, "int"},
#ifdef DIF_VAR_CPU
	{"cpu", DIF_VAR_CPU, "processorid_t"},
#endif
#ifdef DIF_VAR_NSPID
	{"nspid", DIF_VAR_NSPID, "pid_t"},
	{"nstid", DIF_VAR_NSTID, "id_t"},
	{"nsppid", DIF_VAR_NSPPID, "pid_t"},
	{"cgroup", DIF_VAR_CGROUP, "uint64_t"},
#endif
#ifdef DIF_VAR_CURCPU
	{"curcpu", DIF_VAR_CURCPU, "void *"},
#endif
};

// The subroutine prototypes: dif_subrs.def, the list the VM, the BPF
// translator and the disassembler are made from as well.
constexpr size_t count_params(std::initializer_list<const char *> params)
{
	return params.size();
}

#define DIF_SUBR_PARAMS(...) __VA_ARGS__
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind)       \
	static_assert(count_params({DIF_SUBR_PARAMS params}) == (max), \
		      "dif_subrs.def: " name "'s parameter list and max disagree");
#include "dif_subrs.def"
#undef DIF_SUBR

const subr_proto k_subrs[] = {
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind) \
	{name,		DIF_SUBR_##NAME,                         \
	 rtype,		{DIF_SUBR_PARAMS params},                \
	 (max) - (min), DIF_ISA_SUBR_##kind == DIF_ISA_SUBR_DESTRUCTIVE},
#include "dif_subrs.def"
#undef DIF_SUBR
};
#undef DIF_SUBR_PARAMS

const action_def k_actions[] = {
	{"trace", act::trace, false},
	{"printf", act::printf, false},
	{"printa", act::printa, false},
	{"print", act::print, false},
	{"tracemem", act::tracemem, false},
	{"exit", act::exit, false},
	{"setopt", act::setopt, false},
	{"stack", act::stack, false},
	{"ustack", act::ustack, false},
	{"jstack", act::jstack, false},
	{"sym", act::sym, false},
	{"func", act::func, false},
	{"mod", act::mod, false},
	{"usym", act::usym, false},
	{"ufunc", act::ufunc, false},
	{"umod", act::umod, false},
	{"uaddr", act::uaddr, false},
	{"speculate", act::speculate, false},
	{"commit", act::commit, false},
	{"discard", act::discard, false},
	{"clear", act::clear, false},
	{"trunc", act::trunc, false},
	{"normalize", act::normalize, false},
	{"denormalize", act::denormalize, false},
	{"raise", act::raise, true},
	{"stop", act::stop, true},
	{"system", act::system, true},
	{"chill", act::chill, true},
	{"breakpoint", act::breakpoint, true},
	{"panic", act::panic, true},
	{"freopen", act::freopen, true},
	{"ftruncate", act::ftruncate, false},
};

const aggfunc_def k_aggs[] = {
	{"count", DTRACEAGG_COUNT, 0, 0},
	{"sum", DTRACEAGG_SUM, 1, 1},
	{"avg", DTRACEAGG_AVG, 1, 1},
	{"min", DTRACEAGG_MIN, 1, 1},
	{"max", DTRACEAGG_MAX, 1, 1},
	{"stddev", DTRACEAGG_STDDEV, 1, 1},
	{"quantize", DTRACEAGG_QUANTIZE, 1, 2},
	{"lquantize", DTRACEAGG_LQUANTIZE, 3, 5},
	{"llquantize", DTRACEAGG_LLQUANTIZE, 5, 6},
};

template <typename T, size_t N>
const T *find_in(const T (&table)[N], const std::string &name)
{
	for (const auto &e : table)
		if (name == e.name)
			return &e;
	return nullptr;
}

} // namespace

const builtin_var *find_builtin(const std::string &name)
{
	return find_in(k_vars, name);
}

const subr_proto *find_subr(const std::string &name)
{
	return find_in(k_subrs, name);
}

const action_def *find_action(const std::string &name)
{
	return find_in(k_actions, name);
}

const aggfunc_def *find_aggfunc(const std::string &name)
{
	return find_in(k_aggs, name);
}

} // namespace dt::compiler
