// SPDX-License-Identifier: MIT
//
// compiler/sema/builtins.hpp - D's predefined identifiers: built-in
// variables (DIF_VAR_*), subroutines (DIF_SUBR_*) with their prototypes
// (made from core/dif/dif_subrs.def),
// actions, and aggregating functions (illumos dt_open.c _dtrace_globals).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dt::compiler {

struct builtin_var {
	const char *name;
	uint32_t id;
	const char *type; // D type name
};

// A subroutine prototype: return type and parameter types. Parameters in
// [] are optional; "..." is variadic. Type names: "string" accepts string
// and char * / char []; "int" any integer; "void *" any pointer or integer.
struct subr_proto {
	const char *name;
	uint32_t id;
	const char *rtype;
	std::vector<const char *> params;
	int optional = 0; // how many trailing params are optional
	bool destructive = false;
};

enum class act : uint8_t {
	trace,
	printf,
	printa,
	print,
	tracemem,
	exit,
	setopt,
	stack,
	ustack,
	jstack,
	sym,
	func,
	mod,
	usym,
	ufunc,
	umod,
	uaddr,
	speculate,
	commit,
	discard,
	clear,
	trunc,
	normalize,
	denormalize,
	raise,
	stop,
	system,
	chill,
	breakpoint,
	panic,
	freopen,
	ftruncate,
};

struct action_def {
	const char *name;
	act a;
	bool destructive;
};

struct aggfunc_def {
	const char *name;
	uint16_t func; // DTRACEAGG_*
	int min_args;
	int max_args;
};

[[nodiscard]] const builtin_var *find_builtin(const std::string &name);
[[nodiscard]] const subr_proto *find_subr(const std::string &name);
[[nodiscard]] const action_def *find_action(const std::string &name);
[[nodiscard]] const aggfunc_def *find_aggfunc(const std::string &name);

} // namespace dt::compiler
