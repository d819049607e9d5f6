// SPDX-License-Identifier: MIT
//
// compiler/sema/builtins.cc - the tables of builtins.hpp.
#include "builtins.hpp"

extern "C" {
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/dif.h>
}

#include <cstring>

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
#ifdef DIF_VAR_CURCPU
	{"curcpu", DIF_VAR_CURCPU, "void *"},
#endif
};

const subr_proto k_subrs[] = {
	{"rand", DIF_SUBR_RAND, "int", {}},
	{"copyin", DIF_SUBR_COPYIN, "void *", {"uintptr_t", "size_t"}},
	{"copyinstr", DIF_SUBR_COPYINSTR, "string", {"uintptr_t", "size_t"}, 1},
	// Linux: a process's argument area as one string (dif_subr.c)
	{"copyinargs", DIF_SUBR_COPYINARGS, "string", {"uintptr_t", "size_t"}},
	{"speculation", DIF_SUBR_SPECULATION, "int", {}},
	{"progenyof", DIF_SUBR_PROGENYOF, "int", {"pid_t"}},
	{"strlen", DIF_SUBR_STRLEN, "size_t", {"string"}},
	{"copyout", DIF_SUBR_COPYOUT, "void", {"void *", "uintptr_t", "size_t"}, 0, true},
	{"copyoutstr", DIF_SUBR_COPYOUTSTR, "void", {"string", "uintptr_t", "size_t"}, 0, true},
	{"alloca", DIF_SUBR_ALLOCA, "void *", {"size_t"}},
	{"bcopy", DIF_SUBR_BCOPY, "void", {"void *", "void *", "size_t"}},
	{"copyinto", DIF_SUBR_COPYINTO, "void", {"uintptr_t", "size_t", "void *"}},
	{"strjoin", DIF_SUBR_STRJOIN, "string", {"string", "string"}},
	{"lltostr", DIF_SUBR_LLTOSTR, "string", {"int64_t", "int"}, 1},
	{"basename", DIF_SUBR_BASENAME, "string", {"string"}},
	{"dirname", DIF_SUBR_DIRNAME, "string", {"string"}},
	{"cleanpath", DIF_SUBR_CLEANPATH, "string", {"string"}},
	{"strchr", DIF_SUBR_STRCHR, "string", {"string", "char"}},
	{"strrchr", DIF_SUBR_STRRCHR, "string", {"string", "char"}},
	{"strstr", DIF_SUBR_STRSTR, "string", {"string", "string"}},
	{"strtok", DIF_SUBR_STRTOK, "string", {"string", "string"}},
	{"substr", DIF_SUBR_SUBSTR, "string", {"string", "int", "int"}, 1},
	{"index", DIF_SUBR_INDEX, "int", {"string", "string", "int"}, 1},
	{"rindex", DIF_SUBR_RINDEX, "int", {"string", "string", "int"}, 1},
	{"htons", DIF_SUBR_HTONS, "uint16_t", {"uint16_t"}},
	{"htonl", DIF_SUBR_HTONL, "uint32_t", {"uint32_t"}},
	{"htonll", DIF_SUBR_HTONLL, "uint64_t", {"uint64_t"}},
	{"ntohs", DIF_SUBR_NTOHS, "uint16_t", {"uint16_t"}},
	{"ntohl", DIF_SUBR_NTOHL, "uint32_t", {"uint32_t"}},
	{"ntohll", DIF_SUBR_NTOHLL, "uint64_t", {"uint64_t"}},
	{"inet_ntop", DIF_SUBR_INET_NTOP, "string", {"int", "void *"}},
	{"inet_ntoa", DIF_SUBR_INET_NTOA, "string", {"void *"}},
	{"inet_ntoa6", DIF_SUBR_INET_NTOA6, "string", {"void *"}},
	{"toupper", DIF_SUBR_TOUPPER, "string", {"string"}},
	{"tolower", DIF_SUBR_TOLOWER, "string", {"string"}},
	{"json", DIF_SUBR_JSON, "string", {"string", "string"}},
	{"strtoll", DIF_SUBR_STRTOLL, "int64_t", {"string", "int"}, 1},
	{"d_path", DIF_SUBR_D_PATH, "string", {"void *"}},
	{"getmajor", DIF_SUBR_GETMAJOR, "major_t", {"dev_t"}},
	{"getminor", DIF_SUBR_GETMINOR, "minor_t", {"dev_t"}},
	{"mutex_owned", DIF_SUBR_MUTEX_OWNED, "int", {"void *"}},
	{"mutex_owner", DIF_SUBR_MUTEX_OWNER, "void *", {"void *"}},
	{"mutex_type_adaptive", DIF_SUBR_MUTEX_TYPE_ADAPTIVE, "int", {"void *"}},
	{"mutex_type_spin", DIF_SUBR_MUTEX_TYPE_SPIN, "int", {"void *"}},
	{"rw_read_held", DIF_SUBR_RW_READ_HELD, "int", {"void *"}},
	{"rw_write_held", DIF_SUBR_RW_WRITE_HELD, "int", {"void *"}},
	{"rw_iswriter", DIF_SUBR_RW_ISWRITER, "int", {"void *"}},
	{"msgdsize", DIF_SUBR_MSGDSIZE, "size_t", {"void *"}},
	{"msgsize", DIF_SUBR_MSGSIZE, "size_t", {"void *"}},
	{"ddi_pathname", DIF_SUBR_DDI_PATHNAME, "string", {"void *", "int"}},
	{"getf", DIF_SUBR_GETF, "void *", {"int"}},
};

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
