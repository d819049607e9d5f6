// SPDX-License-Identifier: MIT
//
// compiler/sema/sema.cc - pass 3 driver: the unit in order (declarations
// and pragmas applied by declare.cc), clauses,
// probe matching and statement plans (actions and aggregations, as
// illumos dt_cc.c's dt_action_* and dt_compile_agg).
#include "sema.hpp"

#include "../../program/printf_format.hpp"
#include "../btf/kernel_types.hpp"
#include "../diag.hpp"
#include "builtins.hpp"
#include "expr_check.hpp"
#include "util/assert.hpp"

#include <dtrace/options.hpp>
#include <dtrace/ustack_capture.hpp>

extern "C" {
#include "dif_agg.h"
}

#include <algorithm>

namespace dt::compiler {

namespace {

class clause_checker {
public:
	clause_checker(sema_ctx &ctx, checked_clause &cc, expr_checker &ec)
		: ctx_(ctx), cc_(cc), ec_(ec), types_(ctx.syms.types)
	{
	}
	void statement(expr &s);

private:
	void action(expr &s, const action_def &a);
	void aggregation(expr &s);
	void printflike(expr &s, stmt_plan &p, const char *name);
	void argc_check(expr &s, size_t min, size_t max);
	void agg_argc(expr &s, size_t min, size_t max, tag t);
	arg_plan plan_value(expr &e);
	void check_value(expr &e);
	arg_plan plan_const(int64_t v, uint32_t line);
	const agg_info &agg_arg(expr &s, expr &a, int argno, tag t, tag bad);
	void speculation_rules(const stmt_plan &p, uint32_t line);
	bool data_recording(const stmt_plan &p) const;
	uint32_t cap_frames(int64_t n) const;

	sema_ctx &ctx_;
	checked_clause &cc_;
	expr_checker &ec_;
	type_table &types_;
	bool speculate_ = false, commit_ = false, datarec_ = false;
	uint32_t capture_bytes_ = 0; // ustack() captures recorded so far
	// ustack() key types that hold a capture: their size without it.
	std::map<const ctype *, uint32_t> capture_keys_;
};

// illumos dt_action_stack_args() / dt_action_ustack_args(): stack( ) and
// ustack( ) / jstack( ) take their own argument checks and words (jstack's
// say "ustack( )" as illumos' do).
[[noreturn]] void stack_arg_error(const std::string &name, size_t i, uint32_t line)
{
	if (name == "stack")
		fail(tag::D_STACK_SIZE, line,
		     "stack( ) size must be a non-zero positive integral constant expression");
	if (i == 0)
		fail(tag::D_USTACK_FRAMES, line,
		     "ustack( ) argument #1 must be a non-zero positive integer constant");
	fail(tag::D_USTACK_STRSIZE, line,
	     "ustack( ) argument #2 must be a positive integer constant");
}

void stack_argc(const std::string &name, size_t argc, uint32_t line)
{
	if (name == "stack" && argc > 1)
		fail(tag::D_STACK_PROTO, line, "stack( ) prototype mismatch: too many arguments");
	if (name != "stack" && argc > 2)
		fail(tag::D_USTACK_PROTO, line, "ustack( ) prototype mismatch: too many arguments");
}

// A stack's frames, at most the maxframes option's when it is set (as
// stackdepth and ustackdepth are counted in the engines).
uint32_t clause_checker::cap_frames(int64_t n) const
{
	uint32_t max = resolve_options(ctx_.options).maxframes;
	if (max != 0 && n > static_cast<int64_t>(max))
		return max;
	return static_cast<uint32_t>(n);
}

void clause_checker::check_value(expr &e)
{
	// stack(), ustack(), jstack(), sym() ... are values where a record is
	// taken: aggregation keys and printf-like arguments (illumos).
	const action_def *ad = e.kind == ek::call ? find_action(e.name) : nullptr;
	if (!ad) {
		ec_.check(e);
		return;
	}
	auto t = std::make_shared<ctype>();
	t->k = ctype::kind::integer;
	t->is_record_func = true;
	t->align = 8;
	auto frames = [&](size_t i, int64_t dflt, int64_t min) -> uint32_t {
		if (e.kids.size() <= i)
			return i == 0 ? cap_frames(dflt) : static_cast<uint32_t>(dflt);
		expr &n = *e.kids[i];
		ec_.check(n);
		if (!n.s.is_const || n.s.value < min)
			stack_arg_error(e.name, i, e.line);
		return i == 0 ? cap_frames(n.s.value) : static_cast<uint32_t>(n.s.value);
	};
	auto addr = [&](value_type::kind k, uint32_t size) {
		argc_check(e, 1, 1);
		ec_.check(*e.kids[0]);
		if (!e.kids[0]->s.type->is_scalar())
			fail(tag::D_PROTO_ARG, e.line,
			     e.name +
				     "( ) argument #1 is incompatible with prototype:\n\tprototype: "
				     "uintptr_t\n\t argument: " +
				     e.kids[0]->s.type->name);
		t->rec_kind = k;
		t->size = size;
	};
	switch (ad->a) {
	case act::stack: {
		stack_argc(e.name, e.kids.size(), e.line);
		uint32_t n = frames(0, resolve_options(ctx_.options).stackframes, 1);
		t->rec_kind = value_type::kind::stack;
		t->size = n * 8;
		break;
	}
	case act::ustack:
	case act::jstack: {
		stack_argc(e.name, e.kids.size(), e.line);
		bool j = ad->a == act::jstack;
		const resolved_options ro = resolve_options(ctx_.options);
		uint32_t n = frames(0, j ? ro.jstackframes : ro.ustackframes, 1);
		uint32_t ss = frames(1, j ? ro.jstackstrsize : 0, 0);
		t->rec_kind = value_type::kind::ustack;
		t->size = ((n + 1) * 8 + ss + 7) & ~7u;
		// A key of registers and stack copy (docs/ustack.md): at most
		// k_ustack_key_bytes of stack.
		if (!j && ss == 0 && ustack_bytes(ctx_.options) != 0) {
			uint32_t pcs = t->size;
			t->size = std::max(
				t->size, ustack_capture_size(std::min<uint32_t>(
						 ustack_bytes(ctx_.options), k_ustack_key_bytes)));
			if (t->size != pcs) {
				capture_keys_[t.get()] = pcs;
				t->rec_frames = n;
			}
		}
		break;
	}
	case act::sym:
	case act::func: addr(value_type::kind::sym, 8); break;
	case act::mod: addr(value_type::kind::mod, 8); break;
	case act::usym:
	case act::ufunc: addr(value_type::kind::usym, 16); break;
	case act::umod: addr(value_type::kind::umod, 16); break;
	case act::uaddr: addr(value_type::kind::uaddr, 16); break;
	default:
		// Any other action returns void (illumos' action prototypes):
		// the caller's prototype check rejects it with its own message.
		e.s.type = types_.void_type();
		e.s.what = expr_sema::ref::action;
		return;
	}
	// Each is a stack, whatever its depth: illumos' prototypes of stack(),
	// ustack() and jstack() all return "stack". The resolved name keeps
	// the size apart.
	t->resolved = e.name + "(" + std::to_string(t->size) + ")";
	bool stack = ad->a == act::stack || ad->a == act::ustack || ad->a == act::jstack;
	t->name = stack ? "stack" : t->resolved;
	e.s.type = t;
	e.s.what = expr_sema::ref::action;
}

arg_plan clause_checker::plan_value(expr &e)
{
	if (e.s.what == expr_sema::ref::action) {
		arg_plan a;
		bool is_addr = e.s.type->rec_kind != value_type::kind::stack &&
			       e.s.type->rec_kind != value_type::kind::ustack;
		a.e = is_addr ? e.kids[0].get() : nullptr;
		a.type = types_.named("uint64_t");
		a.vt = types_.value_of(e.s.type);
		a.size = a.vt.size;
		return a;
	}
	arg_plan a;
	a.e = &e;
	a.type = e.s.type;
	a.vt = types_.value_of(e.s.type);
	a.size = a.vt.size;
	return a;
}

arg_plan clause_checker::plan_const(int64_t v, uint32_t line)
{
	auto e = std::make_unique<expr>();
	e->kind = ek::int_lit;
	e->value = static_cast<uint64_t>(v);
	e->int_long = 1;
	e->line = line;
	ec_.check(*e);
	arg_plan a = plan_value(*e);
	cc_.synth.push_back(std::move(e));
	return a;
}

void clause_checker::argc_check(expr &s, size_t min, size_t max)
{
	size_t argc = s.kids.size();
	if (argc >= min && argc <= max)
		return;
	std::string exp = min == max   ? std::to_string(min)
			  : argc < min ? "at least " + std::to_string(min)
				       : "at most " + std::to_string(max);
	fail(tag::D_PROTO_LEN, s.line,
	     s.name + "( ) prototype mismatch: " + std::to_string(argc) +
		     (argc == 1 ? " arg " : " args ") + "passed, " + exp + " expected");
}

void clause_checker::agg_argc(expr &s, size_t min, size_t max, tag t)
{
	// illumos dt_action_clear/normalize/trunc wording ("args" always).
	size_t argc = s.kids.size();
	if (argc >= min && argc <= max)
		return;
	std::string exp = min == max   ? std::to_string(min)
			  : argc < min ? "at least " + std::to_string(min)
				       : "at most " + std::to_string(max);
	fail(t, s.line,
	     s.name + "( ) prototype mismatch: " + std::to_string(argc) + " args passed, " + exp +
		     " expected");
}

const agg_info &clause_checker::agg_arg(expr &s, expr &a, int argno, tag t, tag bad)
{
	if (a.kind != ek::agg || !a.kids.empty()) {
		std::string tn = "expression";
		// An aggregating function's prototype returns void (illumos
		// cooks it here without complaint; the action then refuses it).
		if (a.kind == ek::call && find_aggfunc(a.name) && !find_subr(a.name))
			tn = "void";
		else if (a.kind != ek::agg) {
			ec_.check(a);
			tn = a.s.type->name;
		}
		fail(t, s.line,
		     s.name + "( ) argument #" + std::to_string(argno) +
			     " is incompatible with prototype:\n\tprototype: aggregation\n\t argument: " +
			     tn);
	}
	auto it = ctx_.syms.aggs.find(a.name);
	if (it == ctx_.syms.aggs.end())
		fail(bad, s.line, "undefined aggregation: @" + a.name);
	return it->second;
}

namespace {

fmt::arg_type fmt_type(const ctype &t)
{
	fmt::arg_type a;
	a.name = t.name;
	a.resolved = t.resolved;
	a.typedefs = t.typedefs;
	a.size = t.size;
	a.is_integer = t.is_int();
	a.is_signed = t.is_signed;
	a.is_pointer = t.is_ptr();
	a.is_float = t.k == ctype::kind::floating;
	a.is_string = t.is_string();
	a.is_char_array = t.is_array() && t.ref && t.ref->is_int() && t.ref->size == 1;
	a.is_wchar_array = t.is_array() && t.ref && t.ref->is_int() && t.ref->size == 4;
	if (t.is_record_func) {
		a.is_integer = false;
		a.is_stack = t.rec_kind == value_type::kind::stack ||
			     t.rec_kind == value_type::kind::ustack;
		a.is_symaddr =
			t.rec_kind == value_type::kind::sym || t.rec_kind == value_type::kind::mod;
		a.is_usymaddr = t.rec_kind == value_type::kind::usym ||
				t.rec_kind == value_type::kind::umod ||
				t.rec_kind == value_type::kind::uaddr;
	}
	return a;
}

// illumos dt_node_is_argcompat(): may two aggregations' keys be printed by
// one printa()? Integers with integers, strings with strings, stacks and
// symbols with their kind, anything else with the same type.
bool keys_compatible(const ctype &a, const ctype &b)
{
	if (a.is_int() && b.is_int())
		return true;
	bool as = a.is_string() || a.is_char_ptr_or_array();
	bool bs = b.is_string() || b.is_char_ptr_or_array();
	if (as || bs)
		return as && bs;
	if (a.is_record_func || b.is_record_func)
		return a.is_record_func && b.is_record_func && a.rec_kind == b.rec_kind;
	if (a.is_ptr() && b.is_ptr())
		return true;
	return a.resolved == b.resolved;
}

// Does e call a destructive subroutine (dif_subrs.def: copyout, copyoutstr)?
bool calls_destructive(const expr &e)
{
	if (e.kind == ek::call && e.s.what == expr_sema::ref::subr &&
	    (e.s.id == DIF_SUBR_COPYOUT || e.s.id == DIF_SUBR_COPYOUTSTR))
		return true;
	for (const auto &k : e.kids)
		if (k && calls_destructive(*k))
			return true;
	return false;
}

// illumos dt_compile_agg(): an lquantize() or llquantize() whose parameters
// differ from the aggregation's first use names the first that differs.
void quantize_mismatch(uint16_t func, const std::vector<int64_t> &was,
		       const std::vector<int64_t> &now, uint32_t line)
{
	auto say = [&](tag t, const std::string &fn, const std::string &what, size_t argn,
		       int64_t expected, int64_t found) {
		fail(t, line,
		     fn + "( ) " + what + " (argument #" + std::to_string(argn) +
			     ") doesn't match previous declaration: expected " +
			     std::to_string(expected) + ", found " + std::to_string(found));
	};
	if (func == DTRACEAGG_LQUANTIZE && was.size() == 3 && now.size() == 3) {
		// Compared as dtrace_aggregate's argument encodes them: base,
		// step and the number of levels.
		int64_t olevels = dif_agg_lquantize_levels(was[0], was[1], was[2]);
		int64_t nlevels = dif_agg_lquantize_levels(now[0], now[1], now[2]);
		if (was[0] != now[0])
			say(tag::D_LQUANT_MATCHBASE, "lquantize", "base", 1, was[0], now[0]);
		if (olevels * was[2] != nlevels * now[2])
			say(tag::D_LQUANT_MATCHLIM, "lquantize", "limit", 2,
			    was[0] + olevels * was[2], now[0] + nlevels * now[2]);
		if (was[2] != now[2])
			say(tag::D_LQUANT_MATCHSTEP, "lquantize", "step", 3, was[2], now[2]);
	}
	if (func == DTRACEAGG_LLQUANTIZE && was.size() == 4 && now.size() == 4) {
		static const struct {
			const char *what;
			tag t;
		} args[] = {{"factor", tag::D_LLQUANT_FACTORMATCH},
			    {"low magnitude", tag::D_LLQUANT_LOWMATCH},
			    {"high magnitude", tag::D_LLQUANT_HIGHMATCH},
			    {"linear steps per magnitude", tag::D_LLQUANT_NSTEPMATCH}};
		for (size_t i = 0; i < 4; i++)
			if (was[i] != now[i])
				say(args[i].t, "llquantize", args[i].what, i + 1, was[i], now[i]);
	}
}

// The tag of a format error: the checker's own, or D_SYNTAX for a format
// that does not parse (illumos dt_printf_create() reports those with
// yywarn(), whose tag is D_SYNTAX).
tag format_tag(const fmt::format_error &fe)
{
	const std::string t = fe.tag();
#define X(x)         \
	if (t == #x) \
		return tag::x;
#include "../diagnostics.def"
#undef X
	return t.empty() ? tag::D_SYNTAX : tag::D_PRINTF_ARG_TYPE;
}

} // namespace

void clause_checker::printflike(expr &s, stmt_plan &p, const char *name)
{
	if (s.kids.empty())
		fail(tag::D_PROTO_LEN, s.line,
		     std::string(name) +
			     "( ) prototype mismatch: 0 args passed, at least 1 expected");
	expr &f = *s.kids[0];
	if (f.kind != ek::str_lit) {
		ec_.check(f);
		fail(tag::D_PRINTF_ARG_FMT, s.line,
		     std::string(name) +
			     "( ) argument #1 is incompatible with prototype:\n\tprototype: string "
			     "constant\n\t argument: " +
			     f.s.type->name);
	}
	p.format = f.name;
	std::vector<fmt::arg_type> ats;
	std::vector<expr *> args;
	for (size_t i = 1; i < s.kids.size(); i++) {
		expr &a = *s.kids[i];
		if (a.kind == ek::agg) {
			// No conversion takes one: the format check names the
			// conversion (illumos dt_printf_validate()); a format
			// with too few conversions gets the message below.
			fmt::arg_type agg;
			agg.name = agg.resolved = "aggregation";
			ats.push_back(agg);
			args.push_back(&a);
			continue;
		}
		check_value(a);
		ats.push_back(fmt_type(*a.s.type));
		args.push_back(&a);
	}
	fmt::format parsed;
	try {
		parsed = fmt::parse(p.format);
		if (p.format.empty() && p.kind != DTRACEACT_FREOPEN)
			fail(tag::D_PRINTF_FMT_EMPTY, s.line,
			     std::string(name) + "( ) format string is empty");
		(void)fmt::check_args(parsed, name, ats, 1, false, false,
				      ctx_.set.target.has_value(), true);
	} catch (const fmt::format_error &fe) {
		fail(format_tag(fe), s.line, fe.what());
	}
	for (size_t i = 0; i < args.size(); i++)
		if (args[i]->kind == ek::agg)
			fail(tag::D_PRINTF_ARG_TYPE, s.line,
			     std::string(name) + "( ) argument #" + std::to_string(i + 2) +
				     " is incompatible with prototype: aggregation");
	for (size_t i = 0; i < args.size(); i++)
		if (args[i]->s.type->is_void())
			fail(tag::D_PRINTF_ARG_TYPE, s.line,
			     std::string(name) + "( ) argument #" + std::to_string(i + 2) +
				     " may not be of type void");
	// Which arguments a %s consumes (a char * is recorded as a string).
	size_t ai = 0;
	std::vector<bool> as_str(args.size(), false);
	for (const auto &pc : parsed.pieces) {
		if (!pc.conv || pc.conv->check == fmt::arg_check::pct || (pc.flags & fmt::k_agg))
			continue;
		if (pc.flags & fmt::k_dynwidth)
			ai++;
		if (pc.flags & fmt::k_dynprec)
			ai++;
		if (ai < args.size() && (pc.conv->check == fmt::arg_check::str) &&
		    args[ai]->s.type->is_char_ptr_or_array())
			as_str[ai] = true;
		ai++;
	}
	for (size_t i = 0; i < args.size(); i++) {
		arg_plan a = plan_value(*args[i]);
		if (as_str[i]) {
			a.as_string = true;
			a.type = types_.string_type();
			a.vt = types_.value_of(a.type);
			a.vt.name = args[i]->s.type->name;
			a.size = a.vt.size;
		}
		p.args.push_back(a);
	}
	ctx_.syms.aggs.size(); // (formats are collected by the driver)
}

bool clause_checker::data_recording(const stmt_plan &p) const
{
	if (p.kind == DTRACEACT_DIFEXPR)
		return p.records;
	if (DTRACEACT_ISDESTRUCTIVE(p.kind) || p.kind == DTRACEACT_DISCARD ||
	    p.kind == DTRACEACT_COMMIT || p.kind == DTRACEACT_SPECULATE)
		return false;
	return true;
}

void clause_checker::speculation_rules(const stmt_plan &p, uint32_t line)
{
	// illumos dt_stmt_append's checks, in its order.
	if (p.kind == DTRACEACT_COMMIT) {
		if (commit_)
			fail(tag::D_COMM_COMM, line, "commit( ) may not follow commit( )");
		if (datarec_)
			fail(tag::D_COMM_DREC, line,
			     "commit( ) may not follow data-recording action(s)");
		commit_ = true;
		return;
	}
	if (p.kind == DTRACEACT_SPECULATE) {
		if (speculate_)
			fail(tag::D_SPEC_SPEC, line, "speculate( ) may not follow speculate( )");
		if (commit_)
			fail(tag::D_SPEC_COMM, line, "speculate( ) may not follow commit( )");
		if (datarec_)
			fail(tag::D_SPEC_DREC, line,
			     "speculate( ) may not follow data-recording action(s)");
		speculate_ = true;
		cc_.speculative = true;
		return;
	}
	if (DTRACEACT_ISAGG(p.kind)) {
		if (speculate_)
			fail(tag::D_AGG_SPEC, line,
			     "aggregating actions may not follow speculate( )");
		if (commit_)
			fail(tag::D_AGG_COMM, line, "aggregating actions may not follow commit( )");
		datarec_ = true;
		return;
	}
	if (speculate_) {
		if (DTRACEACT_ISDESTRUCTIVE(p.kind))
			fail(tag::D_ACT_SPEC, line,
			     "destructive actions may not follow speculate( )");
		if (p.kind == DTRACEACT_EXIT)
			fail(tag::D_EXIT_SPEC, line, "exit( ) may not follow speculate( )");
	}
	if (!data_recording(p))
		return;
	if (commit_)
		fail(tag::D_DREC_COMM, line, "data-recording actions may not follow commit( )");
	if (!speculate_)
		datarec_ = true;
}

void clause_checker::action(expr &s, const action_def &a)
{
	stmt_plan p;
	p.line = s.line;
	if ((a.a == act::breakpoint || a.a == act::panic) && speculate_)
		fail(tag::D_ACT_SPEC, s.line, "destructive actions may not follow speculate( )");
	if (a.a == act::breakpoint || a.a == act::panic) {
		argc_check(s, 0, 0); // the prototype first, as on an engine that has them
		fail(tag::D_ACT_UNSUP, s.line,
		     s.name + "( ) is not supported by the " + ctx_.set.engine + " engine");
	}
	auto simple = [&](uint16_t kind, size_t n) {
		argc_check(s, n, n);
		p.kind = kind;
		for (auto &k : s.kids) {
			ec_.check(*k);
			if (!k->s.type->is_scalar())
				fail(tag::D_PROTO_ARG, s.line,
				     s.name +
					     "( ) argument #1 is incompatible with prototype:\n\t"
					     "prototype: int\n\t argument: " +
					     k->s.type->name);
			p.args.push_back(plan_value(*k));
		}
	};
	auto frames = [&](size_t i, int64_t dflt) -> uint32_t {
		if (s.kids.size() <= i)
			return i == 0 ? cap_frames(dflt) : static_cast<uint32_t>(dflt);
		expr &n = *s.kids[i];
		ec_.check(n);
		if (!n.s.is_const || n.s.value < (i == 1 ? 0 : 1))
			stack_arg_error(s.name, i, s.line);
		return i == 0 ? cap_frames(n.s.value) : static_cast<uint32_t>(n.s.value);
	};
	auto addr_rec = [&](uint16_t kind, value_type::kind vk, uint32_t size) {
		argc_check(s, 1, 1);
		ec_.check(*s.kids[0]);
		if (!s.kids[0]->s.type->is_scalar())
			fail(tag::D_PROTO_ARG, s.line,
			     s.name +
				     "( ) argument #1 is incompatible with prototype:\n\tprototype: "
				     "uintptr_t\n\t argument: " +
				     s.kids[0]->s.type->name);
		p.kind = kind;
		arg_plan ap = plan_value(*s.kids[0]);
		ap.vt.k = vk;
		ap.vt.size = size;
		ap.vt.is_signed = false;
		ap.size = size;
		ap.type = types_.named("uint64_t");
		p.args.push_back(ap);
	};
	auto stack_rec = [&](value_type::kind vk, uint32_t size) {
		arg_plan ap;
		ap.type = types_.named("uint64_t");
		ap.vt.k = vk;
		ap.vt.size = size;
		ap.vt.is_signed = false;
		ap.size = size;
		p.args.push_back(ap);
	};
	switch (a.a) {
	case act::trace:
	case act::print: {
		argc_check(s, 1, 1);
		expr &x = *s.kids[0];
		if (x.kind == ek::agg)
			fail(a.a == act::trace ? tag::D_TRACE_AGG : tag::D_PRINT_AGG, s.line,
			     s.name + "( ) may not be applied to an aggregation" +
				     (a.a == act::trace ? "" : " -- did you mean printa()?"));
		ec_.check(x);
		if (x.s.type->is_void())
			fail(a.a == act::trace ? tag::D_TRACE_VOID : tag::D_PRINT_VOID, s.line,
			     s.name + "( ) may not be applied to a void expression");
		p.kind = a.a == act::trace ? DTRACEACT_DIFEXPR : DTRACEACT_PRINTM;
		p.args.push_back(plan_value(x));
		break;
	}
	case act::printf:
		p.kind = DTRACEACT_PRINTF;
		printflike(s, p, "printf");
		break;
	case act::system:
		p.kind = DTRACEACT_SYSTEM;
		printflike(s, p, "system");
		break;
	case act::freopen:
		p.kind = DTRACEACT_FREOPEN;
		printflike(s, p, "freopen");
		break;
	case act::printa: {
		// Its prototype, void(@, ...), is checked before the action's own
		// rules (illumos dt_idcook_sign(), then dt_action_printa()).
		if (s.kids.empty())
			fail(tag::D_PROTO_LEN, s.line,
			     "printa( ) prototype mismatch: 0 args passed, at least 1 expected");
		p.kind = DTRACEACT_PRINTA;
		size_t first = 0;
		if (s.kids[0]->kind == ek::str_lit) {
			p.format = s.kids[0]->name;
			first = 1;
			if (s.kids.size() < 2)
				fail(tag::D_PRINTA_PROTO, s.line,
				     "printa( ) prototype mismatch: 1 args passed, 2 expected");
		}
		const agg_info *proto = nullptr;
		for (size_t i = first; i < s.kids.size(); i++) {
			const agg_info &ag = agg_arg(s, *s.kids[i], static_cast<int>(i + 1),
						     tag::D_PRINTA_AGGARG, tag::D_PRINTA_AGGBAD);
			if (proto && proto->keys.size() != ag.keys.size()) {
				// illumos dt_printa_validate()
				auto keys = [](size_t n) {
					return std::to_string(n) + (n == 1 ? " key" : " keys");
				};
				fail(tag::D_PRINTA_AGGKEY, s.line,
				     "printa( ): @" + proto->name + " and @" + ag.name +
					     " do not have matching key signatures: @" +
					     proto->name + " has " + keys(proto->keys.size()) +
					     ", @" + ag.name + " has " + keys(ag.keys.size()));
			}
			for (size_t k = 0; proto && k < ag.keys.size(); k++) {
				if (keys_compatible(*proto->keys[k], *ag.keys[k]))
					continue;
				// illumos dt_printa_validate(): "%9s key #%d: %s"
				auto line = [&](const agg_info &x) {
					std::string n = x.name;
					if (n.size() < 9)
						n.insert(0, 9 - n.size(), ' ');
					return n + " key #" + std::to_string(k + 1) + ": " +
					       x.keys[k]->name;
				};
				fail(tag::D_PRINTA_AGGPROTO, s.line,
				     "printa( ): @" + ag.name + "[ ] key #" +
					     std::to_string(k + 1) + " is incompatible with @" +
					     proto->name + ":\n" + line(*proto) + "\n" + line(ag));
			}
			if (!proto)
				proto = &ag;
			p.aggs.push_back(ag.id);
		}
		if (!p.format.empty() && proto) {
			std::vector<fmt::arg_type> ats;
			for (const auto &k : proto->keys)
				ats.push_back(fmt_type(*k));
			try {
				auto parsed = fmt::parse(p.format);
				(void)fmt::check_args(parsed, "printa", ats, 1, true,
						      proto->func == DTRACEAGG_COUNT,
						      ctx_.set.target.has_value(), false);
			} catch (const fmt::format_error &fe) {
				fail(format_tag(fe), s.line, fe.what());
			}
		}
		break;
	}
	case act::tracemem: {
		if (s.kids.size() > 3)
			fail(tag::D_TRACEMEM_ARGS, s.line,
			     "tracemem ( ) prototype mismatch: expected at most 3 args");
		argc_check(s, 2, 3);
		expr &addr = *s.kids[0];
		ec_.check(addr);
		if (!addr.s.type->is_int() && !addr.s.type->is_ptr() && !addr.s.type->is_array())
			fail(tag::D_TRACEMEM_ADDR, s.line,
			     "tracemem( ) argument #1 is incompatible with prototype:\n\tprototype: "
			     "pointer or integer\n\t argument: " +
				     addr.s.type->name);
		expr &sz = *s.kids[1];
		ec_.check(sz);
		if (!sz.s.is_const || sz.s.value <= 0)
			fail(tag::D_TRACEMEM_SIZE, s.line,
			     "tracemem( ) argument #2 must be a non-zero positive integral constant "
			     "expression");
		p.kind = DTRACEACT_TRACEMEM;
		arg_plan ap = plan_value(addr);
		ap.vt.k = value_type::kind::bytes;
		ap.vt.size = static_cast<uint32_t>(sz.s.value);
		ap.size = ap.vt.size;
		ap.type = types_.array_of(types_.named("unsigned char"), ap.size);
		p.args.push_back(ap);
		if (s.kids.size() == 3) {
			ec_.check(*s.kids[2]);
			if (!s.kids[2]->s.type->is_scalar())
				fail(tag::D_TRACEMEM_DYNSIZE, s.line,
				     "tracemem ( ) dynamic size (argument #3) must be of scalar type");
			arg_plan dyn = plan_value(*s.kids[2]);
			dyn.type = types_.named("long");
			dyn.vt = types_.value_of(dyn.type);
			dyn.size = 8;
			p.args.push_back(dyn);
		}
		break;
	}
	case act::exit: {
		argc_check(s, 1, 1);
		check_value(*s.kids[0]);
		if (!s.kids[0]->s.type->is_int() || s.kids[0]->s.type->is_record_func)
			fail(tag::D_PROTO_ARG, s.line,
			     "exit( ) argument #1 is incompatible with prototype:\n\tprototype: "
			     "int\n\t argument: " +
				     s.kids[0]->s.type->name);
		p.kind = DTRACEACT_EXIT;
		arg_plan ap = plan_value(*s.kids[0]);
		ap.type = types_.int_type(4, true);
		ap.vt = types_.value_of(ap.type);
		ap.size = 4;
		p.args.push_back(ap);
		break;
	}
	case act::setopt: {
		argc_check(s, 1, 2);
		p.kind = DTRACEACT_LIBACT;
		p.libact = DT_ACT_SETOPT;
		// illumos: "void(char *, [char *])"; both are read when the
		// record is consumed, so any string expression will do.
		for (size_t i = 0; i < s.kids.size(); i++) {
			expr &k = *s.kids[i];
			ec_.check(k);
			if (!k.s.type->is_string() && !k.s.type->is_char_ptr_or_array())
				fail(tag::D_PROTO_ARG, s.line,
				     "setopt( ) argument #" + std::to_string(i + 1) +
					     " is incompatible with prototype:\n\tprototype: char "
					     "*\n\t argument: " +
					     k.s.type->name);
			arg_plan ap = plan_value(k);
			if (!k.s.type->is_string()) {
				ap.as_string = true;
				ap.type = types_.string_type();
				ap.vt = types_.value_of(ap.type);
				ap.size = ap.vt.size;
			}
			p.args.push_back(ap);
		}
		break;
	}
	case act::stack: {
		stack_argc(s.name, s.kids.size(), s.line);
		p.kind = DTRACEACT_STACK;
		p.nframes = frames(0, resolve_options(ctx_.options).stackframes);
		stack_rec(value_type::kind::stack, p.nframes * 8);
		break;
	}
	case act::ustack:
	case act::jstack: {
		stack_argc(s.name, s.kids.size(), s.line);
		bool j = a.a == act::jstack;
		p.kind = j ? DTRACEACT_JSTACK : DTRACEACT_USTACK;
		const resolved_options ro = resolve_options(ctx_.options);
		p.nframes = frames(0, j ? ro.jstackframes : ro.ustackframes);
		p.strsize = s.kids.size() > 1 ? frames(1, 0) : (j ? ro.jstackstrsize : 0);
		uint32_t sz = (p.nframes + 1) * 8 + p.strsize;
		sz = (sz + 7) & ~7u;
		// A record of registers and stack copy (docs/ustack.md). By
		// default (no -x ustackbytes) a clause's captures stop at what
		// leaves its buffer room; a later ustack() walks frame pointers.
		if (uint32_t ub = ustack_bytes(ctx_.options);
		    !j && p.strsize == 0 && ub != 0 &&
		    (ctx_.options.count("ustackbytes") != 0 ||
		     capture_bytes_ + ustack_capture_size(ub) <= k_ustack_default_clause_bytes)) {
			sz = std::max(sz, ustack_capture_size(ub));
			capture_bytes_ += sz;
		}
		stack_rec(value_type::kind::ustack, sz);
		break;
	}
	case act::sym:
	case act::func: addr_rec(DTRACEACT_SYM, value_type::kind::sym, 8); break;
	case act::mod: addr_rec(DTRACEACT_MOD, value_type::kind::mod, 8); break;
	case act::usym:
	case act::ufunc: addr_rec(DTRACEACT_USYM, value_type::kind::usym, 16); break;
	case act::umod: addr_rec(DTRACEACT_UMOD, value_type::kind::umod, 16); break;
	case act::uaddr: addr_rec(DTRACEACT_UADDR, value_type::kind::uaddr, 16); break;
	case act::speculate: simple(DTRACEACT_SPECULATE, 1); break;
	case act::commit: simple(DTRACEACT_COMMIT, 1); break;
	case act::discard: simple(DTRACEACT_DISCARD, 1); break;
	case act::raise: simple(DTRACEACT_RAISE, 1); break;
	case act::chill: simple(DTRACEACT_CHILL, 1); break;
	case act::stop:
		argc_check(s, 0, 0);
		p.kind = DTRACEACT_STOP;
		break;
	case act::ftruncate:
		argc_check(s, 0, 0);
		p.kind = DTRACEACT_LIBACT;
		p.libact = DT_ACT_FTRUNCATE;
		break;
	case act::clear:
	case act::denormalize: {
		bool cl = a.a == act::clear;
		agg_argc(s, 1, 1, cl ? tag::D_CLEAR_PROTO : tag::D_NORMALIZE_PROTO);
		p.kind = DTRACEACT_LIBACT;
		p.libact = cl ? DT_ACT_CLEAR : DT_ACT_DENORMALIZE;
		p.aggs.push_back(agg_arg(s, *s.kids[0], 1,
					 cl ? tag::D_CLEAR_AGGARG : tag::D_NORMALIZE_AGGARG,
					 cl ? tag::D_CLEAR_AGGBAD : tag::D_NORMALIZE_AGGBAD)
					 .id);
		break;
	}
	case act::normalize:
	case act::trunc: {
		bool tr = a.a == act::trunc;
		agg_argc(s, tr ? 1 : 2, 2, tr ? tag::D_TRUNC_PROTO : tag::D_NORMALIZE_PROTO);
		p.kind = DTRACEACT_LIBACT;
		p.libact = tr ? DT_ACT_TRUNC : DT_ACT_NORMALIZE;
		p.aggs.push_back(agg_arg(s, *s.kids[0], 1,
					 tr ? tag::D_TRUNC_AGGARG : tag::D_NORMALIZE_AGGARG,
					 tr ? tag::D_TRUNC_AGGBAD : tag::D_NORMALIZE_AGGBAD)
					 .id);
		if (s.kids.size() == 2) {
			expr &n = *s.kids[1];
			// An aggregation is a value of no scalar type here (illumos
			// dt_action_trunc(), dt_action_normalize()).
			if (n.kind != ek::agg || !n.kids.empty())
				ec_.check(n);
			if (n.kind == ek::agg || !n.s.type->is_scalar())
				fail(tr ? tag::D_TRUNC_SCALAR : tag::D_NORMALIZE_SCALAR, s.line,
				     s.name + "( ) argument #2 must be of scalar type");
			arg_plan ap = plan_value(n);
			ap.type = types_.named("long");
			ap.vt = types_.value_of(ap.type);
			ap.size = 8;
			p.args.push_back(ap);
		} else {
			p.args.push_back(plan_const(0, s.line));
		}
		break;
	}
	case act::breakpoint:
	case act::panic: break;
	}
	speculation_rules(p, s.line);
	cc_.stmts.push_back(std::move(p));
}

void clause_checker::aggregation(expr &s)
{
	expr &lhs = *s.kids[0];
	expr &rhs = *s.kids[1];
	if (s.op != tk::assign)
		fail(tag::D_OP_LVAL, s.line,
		     std::string("operator ") + op_str(s.op) +
			     " requires modifiable lvalue as an operand");
	const aggfunc_def *fd = rhs.kind == ek::call ? find_aggfunc(rhs.name) : nullptr;
	if (!fd)
		fail(tag::D_AGG_FUNC, s.line,
		     "@" + lhs.name + " must be assigned the result of an aggregating function");
	std::vector<type_ref> keys;
	stmt_plan p;
	p.line = s.line;
	p.kind = fd->func;
	uint32_t koff = 0;
	for (auto &k : lhs.kids) {
		check_value(*k);
		if (k->s.type->is_void())
			fail(tag::D_AGG_MDIM, s.line, "aggregation key may not be void");
		arg_plan ap = plan_value(*k);
		if (k->s.type->is_char_ptr_or_array() && false)
			ap.as_string = true;
		ap.vt.size = ap.size;
		keys.push_back(k->s.type);
		koff = (koff + 7) & ~7u;
		koff += ap.size;
		p.keys.push_back(ap);
	}
	// Default ustack() captures in keys (docs/ustack.md) that would make
	// the keys larger than the bpf engine's go back to frame pointers.
	if (ctx_.options.count("ustackbytes") == 0 &&
	    ((koff + 7) & ~7u) > k_ustack_default_keys_bytes)
		for (size_t i = 0; i < lhs.kids.size(); i++) {
			auto it = capture_keys_.find(lhs.kids[i]->s.type.get());
			if (it == capture_keys_.end())
				continue;
			// check_value() made this type for this key alone.
			auto &t = const_cast<ctype &>(*lhs.kids[i]->s.type);
			t.size = it->second;
			t.rec_frames = 0;
			p.keys[i].size = it->second;
			p.keys[i].vt.size = it->second;
			p.keys[i].vt.frames = 0;
			keys[i] = lhs.kids[i]->s.type;
		}
	size_t argc = rhs.kids.size();
	if (static_cast<int>(argc) < fd->min_args || static_cast<int>(argc) > fd->max_args) {
		std::string exp = fd->min_args == fd->max_args ? std::to_string(fd->min_args)
				  : static_cast<int>(argc) < fd->min_args
					  ? "at least " + std::to_string(fd->min_args)
					  : "at most " + std::to_string(fd->max_args);
		fail(tag::D_PROTO_LEN, s.line,
		     rhs.name + "( ) prototype mismatch: " + std::to_string(argc) +
			     (argc == 1 ? " arg " : " args ") + "passed, " + exp + " expected");
	}
	for (auto &k : rhs.kids)
		ec_.check(*k);
	if (argc >= 1) {
		expr &v = *rhs.kids[0];
		if (!v.s.type->is_scalar())
			fail(tag::D_AGG_SCALAR, s.line,
			     rhs.name + "( ) argument #1 must be of scalar type");
		arg_plan ap = plan_value(v);
		ap.type = types_.named("long");
		ap.vt = types_.value_of(ap.type);
		ap.size = 8;
		p.args.push_back(ap);
	}
	std::vector<int64_t> params;
	// illumos dt_compile_agg(): the value is not counted, so lquantize's
	// base is "argument #1".
	auto cparam = [&](size_t i, tag t, const std::string &what) -> int64_t {
		expr &x = *rhs.kids[i];
		if (!x.s.is_const || !x.s.type->is_int())
			fail(t, s.line,
			     rhs.name + "( ) argument #" + std::to_string(i) + what +
				     " must be an integer constant");
		return x.s.value;
	};
	size_t incr_at = 0;
	switch (fd->func) {
	case DTRACEAGG_QUANTIZE: incr_at = 1; break;
	case DTRACEAGG_LQUANTIZE: {
		int64_t base = cparam(1, tag::D_LQUANT_BASETYPE, "");
		if (base < INT32_MIN || base > INT32_MAX)
			fail(tag::D_LQUANT_BASEVAL, s.line,
			     "lquantize( ) argument #1 must be a 32-bit quantity");
		int64_t limit = cparam(2, tag::D_LQUANT_LIMTYPE, "");
		if (limit < INT32_MIN || limit > INT32_MAX)
			fail(tag::D_LQUANT_LIMVAL, s.line,
			     "lquantize( ) argument #2 must be a 32-bit quantity");
		if (limit < base)
			fail(tag::D_LQUANT_MISMATCH, s.line,
			     "lquantize( ) base (argument #1) must be less than limit (argument #2)");
		int64_t step = 1;
		if (argc > 3) {
			expr &x = *rhs.kids[3];
			if (!x.s.is_const || !x.s.type->is_int() || x.s.value <= 0)
				fail(tag::D_LQUANT_STEPTYPE, s.line,
				     "lquantize( ) argument #3 must be a non-zero positive integer "
				     "constant");
			step = x.s.value;
			if (step > UINT16_MAX)
				fail(tag::D_LQUANT_STEPVAL, s.line,
				     "lquantize( ) argument #3 must be a 16-bit quantity");
		}
		if ((limit - base) / step == 0)
			fail(tag::D_LQUANT_STEPLARGE, s.line,
			     "lquantize( ) step (argument #3) too large: must have at least one "
			     "quantization level");
		if ((limit - base) / step > UINT16_MAX)
			fail(tag::D_LQUANT_STEPSMALL, s.line,
			     "lquantize( ) step (argument #3) too small: number of quantization "
			     "levels must be a 16-bit quantity");
		params = {base, limit, step};
		incr_at = argc > 4 ? 4 : 0;
		break;
	}
	case DTRACEAGG_LLQUANTIZE: {
		// illumos: each of the four must be an integer constant and an
		// unsigned 16-bit quantity, then the relations between them.
		static const char *const what[] = {"factor", "low magnitude", "high magnitude",
						   "linear steps per magnitude"};
		static const tag bad_type[] = {tag::D_LLQUANT_FACTORTYPE, tag::D_LLQUANT_LOWTYPE,
					       tag::D_LLQUANT_HIGHTYPE, tag::D_LLQUANT_NSTEPTYPE};
		static const tag bad_val[] = {tag::D_LLQUANT_FACTORVAL, tag::D_LLQUANT_LOWVAL,
					      tag::D_LLQUANT_HIGHVAL, tag::D_LLQUANT_NSTEPVAL};
		int64_t v[4];
		for (size_t i = 0; i < 4; i++) {
			v[i] = cparam(i + 1, bad_type[i], std::string(" (") + what[i] + ")");
			if (static_cast<uint64_t>(v[i]) > UINT16_MAX)
				fail(bad_val[i], s.line,
				     "llquantize( ) argument #" + std::to_string(i + 1) + " (" +
					     what[i] + ") must be an unsigned 16-bit quantity");
		}
		int64_t factor = v[0], low = v[1], high = v[2], nsteps = v[3];
		if (factor < 2)
			fail(tag::D_LLQUANT_FACTORSMALL, s.line,
			     "llquantize( ) factor (argument #1) must be two or more");
		if (low >= high)
			fail(tag::D_LLQUANT_MAGRANGE, s.line,
			     "llquantize( ) high magnitude (argument #3) must be greater than low "
			     "magnitude (argument #2)");
		if (nsteps < factor)
			fail(tag::D_LLQUANT_FACTORNSTEPS, s.line,
			     "llquantize( ) factor (argument #1) must be less than or equal to the "
			     "number of linear steps per magnitude (argument #4)");
		int64_t pw = factor;
		while (pw < nsteps)
			pw *= factor;
		if (nsteps % factor != 0 || pw % nsteps != 0)
			fail(tag::D_LLQUANT_FACTOREVEN, s.line,
			     "llquantize( ) factor (argument #1) must evenly divide the number of "
			     "steps per magnitude (argument #4), and the number of steps per "
			     "magnitude must evenly divide a power of the factor");
		unsigned __int128 order = 1;
		for (int64_t i = 0; i <= high + 1; i++) {
			order *= static_cast<uint64_t>(factor);
			if (order > UINT64_MAX)
				fail(tag::D_LLQUANT_MAGTOOBIG, s.line,
				     "llquantize( ) factor (" + std::to_string(factor) +
					     ") raised to power of high magnitude (" +
					     std::to_string(high) + ") plus 1 overflows 64-bits");
		}
		params = {factor, low, high, nsteps};
		incr_at = argc > 5 ? 5 : 0;
		break;
	}
	default: break;
	}
	// The value's size (core/dif/dif_agg.h, the arithmetic every engine
	// uses); the checks above leave only parameters it accepts.
	const uint32_t nwords =
		dif_agg_nwords(fd->func, params.data(), static_cast<uint32_t>(params.size()));
	DT_ASSERT(nwords != 0);
	if (incr_at && argc > incr_at) {
		expr &inc = *rhs.kids[incr_at];
		if (!inc.s.type->is_scalar())
			fail(tag::D_PROTO_ARG, s.line,
			     rhs.name + "( ) increment value (argument #" +
				     std::to_string(incr_at + 1) + ") must be of scalar type");
		arg_plan ap = plan_value(inc);
		ap.type = types_.named("long");
		ap.vt = types_.value_of(ap.type);
		ap.size = 8;
		p.args.push_back(ap);
	}
	auto &aggs = ctx_.syms.aggs;
	auto it = aggs.find(lhs.name);
	if (it == aggs.end()) {
		agg_info ai;
		ai.id = static_cast<uint32_t>(aggs.size()) + 1;
		ai.name = lhs.name;
		ai.func = fd->func;
		ai.func_name = fd->name;
		ai.keys = keys;
		ai.params = params;
		ai.nwords = nwords;
		ai.line = s.line;
		it = aggs.emplace(lhs.name, ai).first;
		ctx_.syms.agg_order.push_back(lhs.name);
	} else {
		agg_info &ai = it->second;
		if (ai.func != fd->func)
			fail(tag::D_AGG_REDEF, s.line,
			     "aggregation redefined: @" + lhs.name + "\n\t current: @" + lhs.name +
				     " = " + fd->name + "( )\n\tprevious: @" + lhs.name + " = " +
				     ai.func_name + "( ) : line " + std::to_string(ai.line));
		// Parameters that encode alike (an lquantize() limit that gives
		// the same levels) are the same aggregation, as in illumos.
		if (ai.params != params)
			quantize_mismatch(fd->func, ai.params, params, s.line);
		if (ai.keys.size() != keys.size())
			fail(tag::D_AGG_MDIM, s.line,
			     "@" + lhs.name + "[ ] prototype mismatch: " +
				     std::to_string(keys.size()) + " args passed, " +
				     std::to_string(ai.keys.size()) + " expected");
		for (size_t i = 0; i < keys.size(); i++) {
			const type_ref &a = ai.keys[i], &b = keys[i];
			bool ok = (a->is_int() && b->is_int()) ||
				  (a->is_string() && b->is_string()) ||
				  a->resolved == b->resolved || (a->is_ptr() && b->is_ptr());
			if (!ok)
				fail(tag::D_AGG_MDIM, s.line,
				     "@" + lhs.name + "[ ] argument #" + std::to_string(i + 1) +
					     " is incompatible with prototype:\n\tprototype: " +
					     a->name + "\n\t argument: " + b->name);
		}
	}
	p.aggid = it->second.id;
	// Keys take the aggregation's declared key types (first use wins).
	for (size_t i = 0; i < p.keys.size(); i++) {
		const type_ref &kt = it->second.keys[i];
		p.keys[i].type = kt;
		p.keys[i].vt = types_.value_of(kt);
		p.keys[i].size = p.keys[i].vt.size;
	}
	speculation_rules(p, s.line);
	cc_.stmts.push_back(std::move(p));
}

void clause_checker::statement(expr &s)
{
	if (s.kind == ek::assign && s.kids[0]->kind == ek::agg) {
		aggregation(s);
		return;
	}
	if (s.kind == ek::assign && s.kids[0]->kind == ek::index &&
	    s.kids[0]->kids[0]->kind == ek::agg)
		ec_.check(*s.kids[0]); // @a[x][y]: D_AGG_MDIM
	if (s.kind == ek::agg)
		fail(tag::D_AGG_NULL, s.line, "expression has null effect: @" + s.name);
	if (s.kind == ek::call) {
		if (const action_def *a = find_action(s.name)) {
			action(s, *a);
			return;
		}
	}
	ec_.check(s);
	stmt_plan p;
	p.line = s.line;
	p.kind = DTRACEACT_DIFEXPR;
	p.records = false;
	p.effect = &s;
	// illumos dt_action_destructive(): an expression calling copyout() or
	// copyoutstr() is a destructive action, which speculate() forbids.
	if (speculate_ && calls_destructive(s))
		fail(tag::D_ACT_SPEC, s.line, "destructive actions may not follow speculate( )");
	speculation_rules(p, s.line);
	cc_.stmts.push_back(std::move(p));
}

// illumos dt_probe_info(): a description's attributes are its provider's
// field attributes, least stable of the fields it names (an empty or glob
// field does not count); Unstable when its provider is empty or a glob, or
// it matched no probe, or it matched several and the provider does not
// promise that same-named probes have one signature (argument data below
// Evolving, or an Evolving field left empty or a glob). `pa` is set to the
// attributes probeprov ... args[] take (dt_setcontext()); `known` says
// whether dt_probe_info() would have found a probe to describe.
dt_attribute_t desc_attr(const probe_desc &d, const std::vector<const probe *> &ps, dt_pattr_t &pa,
			 bool &known)
{
	known = false;
	pa = {k_attr_unstable, k_attr_unstable, k_attr_unstable, k_attr_unstable, k_attr_unstable};
	if (ps.empty() || ps[0]->prov == nullptr)
		return k_attr_unstable;
	const dt_pattr_t &prov = ps[0]->prov->ops().attr;
	auto glob = [](const std::string &f) { return f.empty() || is_glob(f); };
	if (ps.size() > 1 && (prov.args.data < DT_STABILITY_EVOLVING ||
			      (prov.mod.name >= DT_STABILITY_EVOLVING && glob(d.mod)) ||
			      (prov.func.name >= DT_STABILITY_EVOLVING && glob(d.func)) ||
			      (prov.name.name >= DT_STABILITY_EVOLVING && glob(d.name))))
		return k_attr_unstable;
	known = true;
	pa = prov;
	if (glob(d.provider))
		return k_attr_unstable;
	dt_attribute_t a = prov.provider;
	if (!glob(d.mod))
		a = attr_min(a, prov.mod);
	if (!glob(d.func))
		a = attr_min(a, prov.func);
	if (!glob(d.name))
		a = attr_min(a, prov.name);
	return a;
}

void match_descs(sema_ctx &ctx, checked_clause &cc, std::vector<const probe *> &matched)
{
	for (const auto &pd : cc.ast->descs) {
		probe_desc d;
		try {
			d = parse_probe_desc(pd.text, ctx.dkind);
		} catch (const error &e) {
			fail(tag::D_PDESC_INVAL, pd.line,
			     "invalid probe description \"" + pd.text + "\": " + e.what());
		}
		if (!cc.desc_text.empty())
			cc.desc_text += ",";
		cc.desc_text += pd.text;
		cc.descs.push_back(d);
		if (!ctx.set.registry)
			continue;
		std::vector<const probe *> ps;
		try {
			ps = ctx.set.registry->match(d);
		} catch (const desc_refused &e) {
			// A provider's own diagnostic (dt_pid.c's D_PROC_*).
			fail(tag_from_name(e.tag()).value_or(tag::D_PDESC_INVAL), pd.line,
			     e.what());
		}
		if (ps.empty() && !ctx.set.zero_ok)
			fail(tag::D_PDESC_ZERO, pd.line,
			     "probe description " + d.str() + " does not match any probes");
		dt_pattr_t pa;
		clause::desc_info di;
		di.attr = desc_attr(d, ps, pa, di.known);
		di.args = d.provider.empty() || is_glob(d.provider) ? k_attr_unstable : pa.args;
		cc.desc_attrs.push_back(di.attr);
		cc.desc_infos.push_back(di);
		if (cc.desc_attrs.size() == 1)
			cc.probe_attr = pa;
		matched.insert(matched.end(), ps.begin(), ps.end());
	}
}

void check_clause(sema_ctx &ctx, clause_ast &c, std::vector<checked_clause> &out)
{
	checked_clause cc;
	cc.ast = &c;
	cc.line = c.line;
	std::vector<const probe *> matched;
	match_descs(ctx, cc, matched);
	std::vector<arg_desc> args;
	bool have_probe = !matched.empty();
	if (have_probe)
		args = ctx.set.registry->args(*matched[0]);
	// this-> variables that earlier clauses typed, with their ids (the same
	// variable in every clause), then clause-local declarations (this int
	// x;) seed the locals table.
	cc.locals = ctx.syms.clause_locals;
	for (const auto &[k, v] : ctx.syms.inlines) {
		if (k.rfind("this->", 0) == 0 && !v.value && !cc.locals.count(k.substr(6))) {
			var_info vi;
			vi.name = k.substr(6);
			vi.scope = DIFV_SCOPE_LOCAL;
			vi.type = v.type;
			vi.id = next_local_id(cc.locals);
			cc.locals[vi.name] = vi;
		}
	}
	expr_checker ec(ctx, &cc, args, have_probe);
	ec.set_probe_attr(cc.probe_attr);
	// illumos dt_cook_clause() gives the clause its probe's attributes
	// first, so that -x amin refuses an unstable description before
	// anything the clause names.
	auto amin = ctx.options.find("amin");
	if (amin != ctx.options.end() && !ctx.library)
		if (auto m = parse_attr(amin->second))
			for (dt_attribute_t a : cc.desc_attrs)
				if (attr_below(a, *m))
					fail(tag::D_ATTR_MIN, c.end_line ? c.end_line : c.line,
					     "attributes for clause (" + attr_string(a) +
						     ") are less than predefined minimum");
	if (matched.size() > 1) {
		// illumos dt_idcook_args(): args[] is refused where the probes
		// matched have other argument types (illumos refuses any args[]
		// then; here only an args[n] that would be typed wrongly for one
		// of them, as Linux providers have same-named probes of other
		// types where illumos has one).
		std::vector<std::vector<arg_desc>> all; // each matched probe's, once asked
		ec.set_others([&ctx, &matched, all](int64_t n) mutable {
			if (all.empty())
				for (const probe *p : matched)
					all.push_back(ctx.set.registry->args(*p));
			const auto k = static_cast<size_t>(n);
			for (size_t i = 1; i < all.size(); i++) {
				if ((all[i].size() > k) != (all[0].size() > k))
					return true;
				if (all[0].size() > k && (all[i][k].native != all[0][k].native ||
							  all[i][k].xlate != all[0][k].xlate ||
							  all[i][k].mapping != all[0][k].mapping))
					return true;
			}
			return false;
		});
	}
	auto check_predicate = [&] {
		try {
			ec.check(*c.predicate);
			const type_ref &t = c.predicate->s.type;
			if (!t->is_scalar() && !t->is_string())
				fail(tag::D_PRED_SCALAR, c.predicate->line,
				     "predicate result must be of scalar type");
		} catch (d_error &e) {
			if (e.region.empty())
				e.region = "predicate";
			throw;
		}
	};
	// illumos dt_cook_clause() cooks a clause twice when it must: a
	// variable the predicate reads may be first assigned in the actions
	// (/n < 5/ { n++; }). The predicate is checked again after them.
	bool predicate_after = false;
	if (c.predicate) {
		try {
			check_predicate();
		} catch (d_error &e) {
			if (e.which != tag::D_IDENT_UNDEF || c.stmts.empty())
				throw;
			predicate_after = true;
		}
	}
	try {
		clause_checker ck(ctx, cc, ec);
		for (auto &s : c.stmts)
			ck.statement(*s);
	} catch (d_error &e) {
		if (e.region.empty())
			e.region = "action list";
		throw;
	}
	if (predicate_after)
		check_predicate();
	// illumos dt_compile_one_clause(): a clause without actions has the
	// default statement attributes, whatever its predicate names.
	cc.stmt_attr = c.stmts.empty() ? k_attr_stable : ec.attr();
	for (const auto &[name, v] : cc.locals)
		if (!v.implicit)
			ctx.syms.clause_locals.emplace(name, v);
	out.push_back(std::move(cc));
}

} // namespace

namespace {

// What an identifier an inline would redefine already is, in illumos'
// words (dt_idkind_name() and "inline" for an inline), or null.
const char *defined_as(const symbols &syms, const std::string &name)
{
	auto in = syms.inlines.find(name);
	if (in != syms.inlines.end())
		return in->second.params.empty() ? "scalar inline" : "associative array inline";
	auto g = syms.globals.find(name);
	if (g != syms.globals.end())
		return g->second.is_array ? "associative array " : "scalar ";
	if (find_builtin(name))
		return "scalar ";
	if (find_subr(name))
		return "function ";
	if (find_aggfunc(name))
		return "aggregating function ";
	if (find_action(name))
		return "tracing function ";
	return nullptr;
}

} // namespace

void check_unit(sema_ctx &ctx, translation_unit &u, std::vector<checked_clause> &out,
		std::map<std::string, std::string> &options)
{
	for (auto &it : u.items) {
		switch (it.k) {
		case item::kind::pragma: apply_pragma(ctx, it.pragma, it.line, options); break;
		case item::kind::decl: declare(ctx, *it.decl); break;
		case item::kind::inline_: {
			inline_ast &in = *it.inl;
			expr_checker ec(ctx, nullptr, {}, false);
			type_ref t = ctx.syms.types.resolve(
				*in.spec, [&](expr &x) { return ec.constant(x); });
			t = ctx.syms.types.apply(t, in.decl.ptrs, {});
			inline_info info{t, in.value.get(), {}, {}};
			for (size_t i = 0; i < in.decl.keys.size(); i++) {
				if (in.decl.key_names[i].empty())
					fail(tag::D_DECL_PARMNAME, in.line,
					     "inline parameter " + std::to_string(i + 1) + " of " +
						     in.decl.name + " needs a name");
				info.params.push_back(in.decl.key_names[i]);
				info.param_types.push_back(ec.resolve_type_name(in.decl.keys[i]));
				ec.bind_xlate_arg(info.params.back(), info.param_types.back());
			}
			if (const char *prev = defined_as(ctx.syms, in.decl.name))
				fail(tag::D_DECL_IDRED, in.line,
				     "identifier redefined: " + in.decl.name +
					     "\n\t current: inline definition\n\tprevious: " +
					     prev);
			ec.check(*in.value);
			if (!ec.assignable(t, in.value->s.type, in.value.get()))
				fail(tag::D_OP_INCOMPAT, in.line,
				     "inline " + in.decl.name +
					     " definition uses incompatible types: \"" + t->name +
					     "\" = \"" + in.value->s.type->name + "\"");
			ctx.syms.inlines[in.decl.name] = std::move(info);
			break;
		}
		case item::kind::translator: declare_translator(ctx, *it.xl); break;
		case item::kind::provider: break;
		case item::kind::clause: check_clause(ctx, *it.clause, out); break;
		}
	}
}

} // namespace dt::compiler
