// SPDX-License-Identifier: MIT
//
// compiler/sema/sema.hpp - pass 3: AST -> typed tree and statement plans.
//
//   translation_unit ──► sema::check_unit() ──► checked_clause[] (+ symbols)
//
// Sema gives every expression its D type (expr::s), resolves identifiers
// (built-in variables, user globals, self->/this-> variables, associative
// arrays, args[], inlines, enumerators, macro constants), checks operators,
// subroutine prototypes (D_PROTO_LEN / D_PROTO_ARG), actions and their
// arguments (printf formats through program/printf_format.hpp), aggregations
// (D_AGG_REDEF, lquantize/llquantize parameters), destructive actions
// (-w) and matches probe descriptions through the registry (D_PDESC_ZERO).
// Each statement becomes a stmt_plan: what codegen must evaluate and
// record. Symbols persist across the inputs of one compilation.
#pragma once

#include "../btf/kernel_syms.hpp"
#include "types.hpp"

#include <dtrace/compiler.hpp>
#include <dtrace/provider.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace dt::compiler {

struct var_info {
	std::string name;
	uint32_t id = 0;
	uint8_t scope = DIFV_SCOPE_GLOBAL;
	bool is_array = false; // associative array
	bool implicit = false; // declared by a reference (an int until assigned)
	type_ref type;
	std::vector<type_ref> keys;
	uint32_t line = 0;
};

struct agg_info {
	uint32_t id = 0;
	std::string name;
	uint16_t func = 0;
	std::string func_name;
	std::vector<type_ref> keys;
	std::vector<int64_t> params;
	uint32_t nwords = 1;
	uint32_t line = 0;
};

struct inline_info {
	type_ref type;
	const expr *value = nullptr;
	// An inline with parameters, used as name[args] (illumos io.d's
	// fds[int fd]): their names and types, bound like a translator's
	// input when the value is generated.
	std::vector<std::string> params;
	std::vector<type_ref> param_types;
};

// A translator: `translator OUT < IN NAME > { member = expr; ... };`
struct translator_info {
	type_ref out; // the struct translated to
	type_ref in;  // the input type
	std::string in_name;
	std::map<std::string, const expr *> members;
};

// Everything declared so far (shared by all inputs of a compilation).
struct symbols {
	explicit symbols(uint32_t strsize) : types(strsize) {}
	type_table types;
	std::map<std::string, var_info> globals;
	std::map<std::string, var_info> tls;
	std::map<std::string, agg_info> aggs;
	std::vector<std::string> agg_order;
	std::map<std::string, inline_info> inlines;
	// this-> variables as earlier clauses typed them: illumos keeps one
	// table of clause-locals per program, so a later clause sees the type.
	std::map<std::string, var_info> clause_locals;
	std::vector<translator_info> xlators;
	// #pragma D attributes A name: the identifier's stability (illumos
	// di_attr); an identifier not named has its built-in attributes.
	std::map<std::string, dt_attribute_t> attrs;
	kernel_syms ksyms;	   // `sym addresses (kallsyms), read when first used
	bool reads_kernel = false; // codegen emitted a kernel read (program::reads_kernel)
	uint32_t next_global = DIF_VAR_OTHER_UBASE;
	uint32_t next_tls = DIF_VAR_OTHER_UBASE;
	uint32_t first_spill = DIF_VAR_OTHER_UBASE;	      // codegen: past every clause's this->
	std::vector<std::unique_ptr<translation_unit>> units; // keep inline bodies alive
	// -x linkmode and -x knodefs as codegen reads them (illumos
	// dt_linkmode, DTRACE_C_KNODEF): which kernel symbols a DIF object
	// may hold the value of (codegen.cc, check_links()).
	std::string linkmode = "kernel";
	bool knodefs = false;
};

// The id for a new clause-local: past every id the table holds (ids of
// this-> variables typed by earlier clauses are kept, so they may not be
// dense).
inline uint32_t next_local_id(const std::map<std::string, var_info> &locals)
{
	uint32_t next = DIF_VAR_OTHER_UBASE;
	for (const auto &[name, v] : locals)
		next = std::max(next, v.id + 1);
	return next;
}

// One value an action records (or, for aggregations, a key/value).
struct arg_plan {
	expr *e = nullptr;
	value_type vt;
	type_ref type;		// the DIF object's result type
	uint32_t size = 0;	// record size (0: vt.size)
	bool as_string = false; // a char * recorded as a string (%s)
};

struct stmt_plan {
	uint16_t kind = DTRACEACT_DIFEXPR;
	uint16_t libact = 0;
	bool records = true;
	std::vector<arg_plan> args;
	std::string format;
	std::vector<uint32_t> aggs;
	uint32_t aggid = 0;
	std::vector<arg_plan> keys;
	uint32_t nframes = 0;
	uint32_t strsize = 0;
	uint32_t line = 0;
	expr *effect = nullptr; // records == false: evaluated for side effects
};

struct checked_clause {
	clause_ast *ast = nullptr;
	std::vector<probe_desc> descs;
	std::string desc_text;
	std::map<std::string, var_info> locals; // this-> variables
	std::vector<stmt_plan> stmts;
	bool speculative = false;
	uint32_t line = 0;
	std::vector<expr_ptr> synth; // expressions sema made up (default arguments)
	// Stability: one attribute per description (illumos dtsd_descattr),
	// the first description's provider fields (for probeprov ... args[]),
	// and the statements' (dtsd_stmtattr).
	std::vector<dt_attribute_t> desc_attrs;
	std::vector<clause::desc_info> desc_infos;
	dt_pattr_t probe_attr{};
	dt_attribute_t stmt_attr = k_attr_stable;
};

struct sema_ctx {
	symbols &syms;
	const settings &set;
	const std::map<std::string, std::string> &options;
	desc_kind dkind = desc_kind::name; // how clause heads are read (-P/-m/-f/-n)
	bool library = false;		   // checking a D library (not the program)
};

// declare.cc: a `#pragma D ...` line (options into `options`), a C
// declaration, a translator, each applied to ctx.syms as it comes.
void apply_pragma(sema_ctx &ctx, const std::string &text, uint32_t line,
		  std::map<std::string, std::string> &options);
void declare(sema_ctx &ctx, decl_ast &d);
void declare_translator(sema_ctx &ctx, translator_ast &x);

// Check one parsed unit; clauses are appended to `out`. Declarations,
// inlines and pragmas are applied to syms / options as they come.
void check_unit(sema_ctx &ctx, translation_unit &u, std::vector<checked_clause> &out,
		std::map<std::string, std::string> &options);

} // namespace dt::compiler
