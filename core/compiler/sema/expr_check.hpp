// SPDX-License-Identifier: MIT
//
// compiler/sema/expr_check.hpp - typing of D expressions (part of pass 3).
//
// expr_checker::check(e) fills e.s (type, what identifiers name, constant
// value) and raises D_* diagnostics in illumos' words. It declares user
// variables on first assignment (globals, self->, this->, associative
// arrays), as D does.
#pragma once

#include "sema.hpp"

#include <dtrace/attributes.hpp>
#include <dtrace/provider.hpp>

#include <functional>
#include <optional>

namespace dt::compiler {

class expr_checker {
public:
	expr_checker(sema_ctx &ctx, checked_clause *cc, std::vector<arg_desc> args,
		     bool have_probe);

	void check(expr &e);
	// Stability (illumos dn_attr): the least stable identifier checked
	// since reset_attr() -- built-in variables, subroutines, args[] and
	// probeprov... (the probe's provider, set_probe_attr()), inlines with
	// #pragma D attributes, kernel symbols. Under -x amin, one below the
	// minimum is refused (D_ATTR_MIN) naming it as illumos does.
	void reset_attr() { attr_ = k_attr_stable; }
	[[nodiscard]] dt_attribute_t attr() const { return attr_; }
	void set_probe_attr(const dt_pattr_t &pa) { probe_attr_ = pa; }
	void note_attr(dt_attribute_t a, const std::string &kind, const std::string &name,
		       uint32_t line);
	// Whether the other probes the clause matched (args_ are the
	// first's) have arguments other than args_ for a use of args[n]:
	// args[] is then refused (D_ARGS_MULTI).
	void set_others(std::function<bool(int64_t)> others_differ)
	{
		others_differ_ = std::move(others_differ);
	}
	// Integer constant expression (array sizes, enum values, agg params).
	int64_t constant(expr &e);
	[[nodiscard]] type_table &types() { return types_; }

	// Promotions (C): the type both operands convert to.
	type_ref arith_result(const type_ref &a, const type_ref &b) const;
	type_ref promote(const type_ref &a) const;

	[[noreturn]] void incompat(const expr &e, const type_ref &l, const char *op,
				   const type_ref &r) const;
	var_info &declare(std::map<std::string, var_info> &table, const std::string &name,
			  uint8_t scope, bool array, const type_ref &t, std::vector<type_ref> keys,
			  uint32_t line);
	void check_assign(expr &e);
	type_ref resolve_type_name(type_name &tn);
	// rhs: the value assigned, when there is one (NULL may be assigned
	// to strings, pointers and dynamic structs; other integers only to
	// integers). Without it (prototype checks), any integer to a pointer.
	[[nodiscard]] bool assignable(const type_ref &to, const type_ref &from,
				      const expr *rhs = nullptr) const;
	// Translators: bind NAME (of type t) while checking member expressions.
	void bind_xlate_arg(const std::string &name, const type_ref &t) { xl_args_[name] = t; }
	// The translator from `in` to struct `out`, or -1.
	[[nodiscard]] int find_xlator(const type_ref &out, const type_ref &in) const;

private:
	void check_ident(expr &e);
	void check_ksym(expr &e, bool addr_only);
	void check_uregs(expr &e, bool lvalue);
	void implicit_int(expr &x);
	void check_var(expr &e);
	void check_unary(expr &e);
	void check_binary(expr &e);
	void check_index(expr &e, bool lvalue);
	void check_call(expr &e);
	void check_member(expr &e);
	[[nodiscard]] bool check_named_arg(expr &e); // args->NAME
	void check_subr_args(expr &e, const struct subr_proto &p);
	// A call of an action (trace(), exit()...): void where a value is due.
	[[nodiscard]] static bool is_action_call(const expr &e);
	void check_operand(expr &x);

	sema_ctx &ctx_;
	symbols &syms_;
	type_table &types_;
	checked_clause *cc_;
	std::vector<arg_desc> args_;
	bool have_probe_;
	std::function<bool(int64_t)> others_differ_;
	std::map<std::string, type_ref> xl_args_;
	dt_attribute_t attr_ = k_attr_stable;
	dt_pattr_t probe_attr_{k_attr_unstable, k_attr_unstable, k_attr_unstable, k_attr_unstable,
			       k_attr_unstable};
	std::optional<dt_attribute_t> amin_;
};

const char *op_str(tk k);
// The integer constant 0 (NULL).
[[nodiscard]] bool is_null_constant(const expr &e);

} // namespace dt::compiler
