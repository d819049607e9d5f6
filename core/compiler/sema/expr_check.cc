// SPDX-License-Identifier: MIT
//
// compiler/sema/expr_check.cc - typing of D expressions (see expr_check.hpp).
// Diagnostics follow illumos dt_parser.c's wording.
#include "expr_check.hpp"

#include "../btf/kernel_types.hpp"

#include "../diag.hpp"
#include "builtins.hpp"

#include <algorithm>

namespace dt::compiler {

const char *op_str(tk k)
{
	switch (k) {
	case tk::plus: return "+";
	case tk::minus: return "-";
	case tk::star: return "*";
	case tk::slash: return "/";
	case tk::percent: return "%";
	case tk::amp: return "&";
	case tk::pipe: return "|";
	case tk::caret: return "^";
	case tk::tilde: return "~";
	case tk::bang: return "!";
	case tk::lt: return "<";
	case tk::gt: return ">";
	case tk::le: return "<=";
	case tk::ge: return ">=";
	case tk::eqeq: return "==";
	case tk::ne: return "!=";
	case tk::land: return "&&";
	case tk::lor: return "||";
	case tk::lxor: return "^^";
	case tk::shl: return "<<";
	case tk::shr: return ">>";
	case tk::inc: return "++";
	case tk::dec: return "--";
	case tk::assign: return "=";
	case tk::add_eq: return "+=";
	case tk::sub_eq: return "-=";
	case tk::mul_eq: return "*=";
	case tk::div_eq: return "/=";
	case tk::mod_eq: return "%=";
	case tk::and_eq_: return "&=";
	case tk::or_eq_: return "|=";
	case tk::xor_eq_: return "^=";
	case tk::shl_eq: return "<<=";
	case tk::shr_eq: return ">>=";
	default: return "?";
	}
}

namespace {

tk compound_base(tk k)
{
	switch (k) {
	case tk::add_eq: return tk::plus;
	case tk::sub_eq: return tk::minus;
	case tk::mul_eq: return tk::star;
	case tk::div_eq: return tk::slash;
	case tk::mod_eq: return tk::percent;
	case tk::and_eq_: return tk::amp;
	case tk::or_eq_: return tk::pipe;
	case tk::xor_eq_: return tk::caret;
	case tk::shl_eq: return tk::shl;
	case tk::shr_eq: return tk::shr;
	default: return tk::eof;
	}
}

} // namespace

type_ref expr_checker::promote(const type_ref &a) const
{
	if (a->k == ctype::kind::enum_)
		return types_.int_type(4, true);
	if (a->is_int() && a->size < 4)
		return types_.int_type(4, true);
	return a;
}

// illumos dt_type_promote(): of the two operand types, the one of the
// greater rank (bits, plus one if unsigned), enums counting as int. D does
// not promote narrower integers to int first: unsigned char + char is
// unsigned char.
type_ref expr_checker::arith_result(const type_ref &a0, const type_ref &b0) const
{
	auto as_int = [this](const type_ref &t) {
		return t->k == ctype::kind::enum_ ? types_.int_type(4, true) : t;
	};
	type_ref a = as_int(a0), b = as_int(b0);
	uint32_t ra = a->size * 8 + (a->is_signed ? 0 : 1);
	uint32_t rb = b->size * 8 + (b->is_signed ? 0 : 1);
	return rb > ra ? b : a;
}

void expr_checker::incompat(const expr &e, const type_ref &l, const char *op,
			    const type_ref &r) const
{
	fail(tag::D_OP_INCOMPAT, e.line,
	     std::string("operands have incompatible types: \"") + l->name + "\" " + op + " \"" +
		     r->name + "\"");
}

var_info &expr_checker::declare(std::map<std::string, var_info> &table, const std::string &name,
				uint8_t scope, bool array, const type_ref &t,
				std::vector<type_ref> keys, uint32_t line)
{
	var_info v;
	v.name = name;
	v.scope = scope;
	v.is_array = array;
	v.type = t;
	v.keys = std::move(keys);
	v.line = line;
	if (scope == DIFV_SCOPE_GLOBAL)
		v.id = syms_.next_global++;
	else if (scope == DIFV_SCOPE_THREAD)
		v.id = syms_.next_tls++;
	else
		v.id = next_local_id(table);
	return table[name] = v;
}

type_ref expr_checker::resolve_type_name(type_name &tn)
{
	type_ref base = types_.resolve(*tn.spec, [this](expr &x) { return constant(x); });
	std::vector<uint64_t> dims = tn.dims;
	for (auto &d : tn.dim_exprs)
		dims.push_back(d ? static_cast<uint64_t>(constant(*d)) : 0);
	type_ref t = types_.apply(base, tn.ptrs, dims);
	if (!tn.function)
		return t;
	// A function type (illumos dt_decl_func()): it has no size, and no
	// value of it can be made; a translator's output cannot be one.
	auto f = std::make_shared<ctype>();
	f->k = ctype::kind::func;
	f->name = f->resolved = t->name + " ()";
	f->size = 0;
	f->ref = t;
	return f;
}

int64_t expr_checker::constant(expr &e)
{
	check(e);
	if (!e.s.is_const || !e.s.type->is_int())
		fail(tag::D_DECL_ARRNULL, e.line, "expression must be an integer constant");
	return e.s.value;
}

void expr_checker::check(expr &e)
{
	switch (e.kind) {
	case ek::int_lit: {
		uint64_t v = e.value;
		type_ref t;
		if (e.name == "char") {
			t = types_.int_type(4, true);
		} else if (e.int_long == 0 && !e.int_unsigned && v <= INT32_MAX) {
			t = types_.int_type(4, true);
		} else if (e.int_long == 0 && (e.int_unsigned || e.int_hexoct) && v <= UINT32_MAX) {
			t = types_.int_type(4, false);
		} else if (!e.int_unsigned && v <= static_cast<uint64_t>(INT64_MAX)) {
			t = types_.named(e.int_long == 2 ? "long long" : "long");
		} else {
			t = types_.named(e.int_long == 2 ? "unsigned long long" : "unsigned long");
		}
		e.s.type = t;
		e.s.is_const = true;
		e.s.value = static_cast<int64_t>(v);
		e.s.what = expr_sema::ref::constant;
		return;
	}
	case ek::str_lit: e.s.type = types_.string_type(); return;
	case ek::ident: check_ident(e); return;
	case ek::tls_var:
	case ek::local_var: check_var(e); return;
	case ek::agg:
		fail(tag::D_AGG_SCALAR, e.line,
		     "aggregation @" + e.name + " may not be used as a scalar");
	case ek::unary:
	case ek::incdec: check_unary(e); return;
	case ek::binary: check_binary(e); return;
	case ek::assign: check_assign(e); return;
	case ek::ternary: {
		for (auto &k : e.kids)
			check_operand(*k);
		for (size_t i = 1; i < e.kids.size(); i++)
			if (is_action_call(*e.kids[i]))
				fail(tag::D_OP_ACT, e.line,
				     "action cannot be used in a conditional context");
		const type_ref &c = e.kids[0]->s.type;
		if (!c->is_scalar())
			fail(tag::D_OP_SCALAR, e.line,
			     "operator ?: expression must be of scalar type");
		const type_ref &a = e.kids[1]->s.type, &b = e.kids[2]->s.type;
		if (a->is_int() && b->is_int())
			e.s.type = arith_result(a, b);
		else if (a->is_string() && (b->is_string() || b->is_char_ptr_or_array()))
			e.s.type = a;
		else if (b->is_string() && a->is_char_ptr_or_array())
			e.s.type = b;
		else if (a->is_ptr() && (b->is_ptr() || b->is_int()))
			e.s.type = a;
		else if (b->is_ptr() && a->is_int())
			e.s.type = b;
		else if (a->resolved == b->resolved)
			e.s.type = a;
		else
			fail(tag::D_OP_INCOMPAT, e.line,
			     "operator ?: operands must have compatible types");
		if (e.kids[0]->s.is_const && e.kids[1]->s.is_const && e.kids[2]->s.is_const) {
			e.s.is_const = true;
			e.s.value = e.kids[0]->s.value ? e.kids[1]->s.value : e.kids[2]->s.value;
		}
		return;
	}
	case ek::call: check_call(e); return;
	case ek::index: check_index(e, false); return;
	case ek::member:
	case ek::arrow: check_member(e); return;
	case ek::cast: {
		check_operand(*e.kids[0]);
		type_ref to = resolve_type_name(*e.tname);
		const type_ref &from = e.kids[0]->s.type;
		if (is_action_call(*e.kids[0]) && to->is_void())
			check(*e.kids[0]); // an action has no value to cast
		bool ok = (to->is_scalar() && (from->is_scalar() || from->is_array())) ||
			  to->is_void() ||
			  // the same type (illumos: ctf_type_compat())
			  (from->resolved == to->resolved && !from->is_void()) ||
			  // D adds casts to string: of a string, or of a pointer to one
			  // (illumos dt_cook_op2() DT_TOK_LPAR).
			  (to->is_string() &&
			   (from->is_string() || from->is_ptr() || from->is_char_ptr_or_array()));
		// Translated data has no value of its own: only its members do.
		if (e.kids[0]->s.what == expr_sema::ref::xlate && !to->is_void())
			fail(tag::D_CAST_INVAL, e.line,
			     std::string("invalid cast expression: \"") +
				     (from->is_ptr() ? "pointer to translated data"
						     : "translated data") +
				     "\" to \"" + to->name + "\"");
		if (!ok)
			fail(tag::D_CAST_INVAL, e.line,
			     "invalid cast expression: \"" + from->name + "\" to \"" + to->name +
				     "\"");
		e.s.type = to;
		if (e.kids[0]->s.is_const && to->is_int()) {
			e.s.is_const = true;
			uint64_t v = static_cast<uint64_t>(e.kids[0]->s.value);
			if (to->size < 8) {
				unsigned sh = 64 - to->size * 8;
				v <<= sh;
				v = to->is_signed
					    ? static_cast<uint64_t>(static_cast<int64_t>(v) >> sh)
					    : v >> sh;
			}
			e.s.value = static_cast<int64_t>(v);
		}
		return;
	}
	case ek::sizeof_type:
	case ek::sizeof_expr: {
		type_ref t;
		if (e.kind == ek::sizeof_type) {
			t = resolve_type_name(*e.tname);
		} else {
			check(*e.kids[0]);
			t = e.kids[0]->s.type;
			if (e.kids[0]->s.bit_size)
				fail(tag::D_SIZEOF_BITFIELD, e.line,
				     "cannot apply sizeof to a bit-field");
		}
		if (t->is_void() || (t->is_sou() && !t->complete) || t->k == ctype::kind::func)
			fail(tag::D_SIZEOF_TYPE, e.line,
			     "cannot apply sizeof to an operand of unknown size");
		e.s.type = types_.named("size_t");
		e.s.is_const = true;
		// A string's storage holds the strsize option's characters and a
		// NUL; sizeof (string) is the option, as in illumos.
		e.s.value = t->is_string() ? t->size - 1 : t->size;
		e.s.what = expr_sema::ref::constant;
		return;
	}
	case ek::offsetof: {
		type_ref t = resolve_type_name(*e.tname);
		if (!t->is_sou() || !t->complete)
			fail(tag::D_OFFSETOF_TYPE, e.line,
			     "offsetof operand must be a struct or union type");
		const member *m = t->find_member(e.name);
		if (!m)
			fail(tag::D_TYPE_MEMBER, e.line, e.name + " is not a member of " + t->name);
		if (m->bit_size)
			fail(tag::D_OFFSETOF_BITFIELD, e.line,
			     "cannot take offset of a bit-field: " + e.name);
		e.s.type = types_.named("size_t");
		e.s.is_const = true;
		e.s.value = m->offset;
		e.s.what = expr_sema::ref::constant;
		return;
	}
	case ek::stringof: {
		// An action has no value: illumos types it void (dt_cook_op1()).
		if (is_action_call(*e.kids[0]))
			fail(tag::D_STRINGOF_TYPE, e.line,
			     "cannot apply stringof to a value of type void");
		check(*e.kids[0]);
		const type_ref &t = e.kids[0]->s.type;
		if (!t->is_scalar() && !t->is_string() && !t->is_array())
			fail(tag::D_STRINGOF_TYPE, e.line,
			     "cannot apply stringof to a value of type " + t->name);
		e.s.type = types_.string_type();
		return;
	}
	case ek::xlate: {
		check(*e.kids[0]);
		type_ref to = resolve_type_name(*e.tname);
		type_ref out = to->is_ptr() ? to->ref : to;
		int x = out->is_sou() ? find_xlator(out, e.kids[0]->s.type) : -1;
		if (x < 0)
			fail(tag::D_XLATE_NONE, e.line,
			     "cannot translate from \"" + e.kids[0]->s.type->name + "\" to \"" +
				     to->name + "\"");
		e.s.type = to;
		e.s.what = expr_sema::ref::xlate;
		e.s.id = static_cast<uint32_t>(x);
		return;
	}
	case ek::comma:
		check(*e.kids[0]);
		check(*e.kids[1]);
		e.s.type = e.kids[1]->s.type;
		return;
	}
}

int expr_checker::find_xlator(const type_ref &out, const type_ref &in) const
{
	for (size_t i = 0; i < syms_.xlators.size(); i++) {
		const translator_info &x = syms_.xlators[i];
		if (x.out->resolved != out->resolved)
			continue;
		bool ok = x.in->resolved == in->resolved ||
			  (x.in->is_ptr() && in->is_ptr() &&
			   (in->ref->is_void() || x.in->ref->resolved == in->ref->resolved)) ||
			  (x.in->is_int() && in->is_int()) || (x.in->is_ptr() && in->is_int());
		if (ok)
			return static_cast<int>(i);
	}
	return -1;
}

expr_checker::expr_checker(sema_ctx &ctx, checked_clause *cc, std::vector<arg_desc> args,
			   bool have_probe)
	: ctx_(ctx), syms_(ctx.syms), types_(ctx.syms.types), cc_(cc), args_(std::move(args)),
	  have_probe_(have_probe)
{
	// -x amin (illumos DTRACE_C_EATTR): the D library is not held to it.
	auto a = ctx.options.find("amin");
	if (a != ctx.options.end() && !ctx.library)
		amin_ = parse_attr(a->second);
}

// illumos dt_node_attr_assign(): the first node whose attributes are below
// -x amin stops the compilation, named as dt_node_name() names it.
void expr_checker::note_attr(dt_attribute_t a, const std::string &kind, const std::string &name,
			     uint32_t line)
{
	auto it = syms_.attrs.find(name);
	if (it != syms_.attrs.end())
		a = it->second;
	attr_ = attr_min(attr_, a);
	if (amin_ && attr_below(a, *amin_))
		fail(tag::D_ATTR_MIN, line,
		     "attributes for " + kind + " " + name + (kind == "subroutine" ? "( )" : "") +
			     " (" + attr_string(a) + ") are less than predefined minimum");
}

namespace {

// illumos dt_open.c _dtrace_globals: the identifiers not Stable/Stable/
// Common. curthread's data is Private (a kernel structure); the
// subroutines below are DT_ATTR_EVOLCMN.
dt_attribute_t builtin_attr(const std::string &name)
{
	if (name == "curthread")
		return {DT_STABILITY_STABLE, DT_STABILITY_PRIVATE, DT_CLASS_COMMON};
	static const char *const evolving[] = {
		"ddi_pathname",	   "getmajor",	  "getminor",	  "htonl",
		"htonll",	   "htons",	  "ntohl",	  "ntohll",
		"ntohs",	   "mutex_owned", "mutex_owner",  "mutex_type_adaptive",
		"mutex_type_spin", "rw_iswriter", "rw_read_held", "rw_write_held"};
	for (const char *e : evolving)
		if (name == e)
			return k_attr_evolving;
	return k_attr_stable;
}

} // namespace

// A kernel symbol: mod`sym or `sym (any module). Its address comes from
// kallsyms and its type from BTF (btf/kernel_syms.hpp). A symbol without
// type information can only have its address taken (&`sym, a void *),
// which Linux's BTF makes the common case for global variables.
void expr_checker::check_ksym(expr &e, bool addr_only)
{
	size_t mark = e.name.rfind('`');
	std::string scope = e.name.substr(0, mark);
	std::string sym = e.name.substr(mark + 1);
	std::optional<kernel_sym> ks;
	if (!sym.empty() && scope.find('`') == std::string::npos)
		ks = syms_.ksyms.find(scope, sym);
	if (!ks)
		fail(tag::D_IDENT_UNDEF, e.line,
		     "failed to resolve " + e.name + ": Unknown symbol name");
	type_ref t = types_.kernel().find_symbol(sym);
	if (!t) {
		if (!addr_only)
			fail(tag::D_SYM_NOTYPES, e.line,
			     "no symbolic type information is available for " + ks->module + "`" +
				     sym + ": No type information available for symbol");
		t = types_.void_type();
	}
	note_attr(k_attr_symbol, "external symbol reference", e.name, e.line);
	e.s.what = expr_sema::ref::ksym;
	e.s.type = t;
	e.s.value = static_cast<int64_t>(ks->addr);
	e.s.lvalue = true;
}

void expr_checker::check_ident(expr &e)
{
	if (e.name.find('`') != std::string::npos) {
		check_ksym(e, false);
		return;
	}
	auto xa = xl_args_.find(e.name);
	if (xa != xl_args_.end()) {
		e.s.what = expr_sema::ref::xlate_arg;
		e.s.type = xa->second;
		return;
	}
	auto in = syms_.inlines.find(e.name);
	if (in != syms_.inlines.end()) {
		note_attr(k_attr_stable, "scalar", e.name, e.line);
		e.s.what = expr_sema::ref::inline_;
		e.s.inl = in->second.value;
		e.s.type = in->second.type;
		if (in->second.value->s.is_const) {
			e.s.is_const = true;
			e.s.value = in->second.value->s.value;
		}
		return;
	}
	auto en = types_.enumerators().find(e.name);
	if (en != types_.enumerators().end()) {
		e.s.what = expr_sema::ref::constant;
		e.s.type = en->second.second;
		e.s.is_const = true;
		e.s.value = en->second.first;
		return;
	}
	if (e.name == "NULL" && !syms_.globals.count(e.name)) {
		// D's built-in NULL: illumos hard-wires "inline long NULL = 0;".
		e.s.what = expr_sema::ref::constant;
		e.s.type = types_.named("long");
		e.s.is_const = true;
		e.s.value = 0;
		return;
	}
	if (const builtin_var *b = find_builtin(e.name)) {
		// probeprov ... probename: the matched provider's fields
		// (illumos dt_setcontext()).
		dt_attribute_t a = e.name == "probeprov"   ? probe_attr_.provider
				   : e.name == "probemod"  ? probe_attr_.mod
				   : e.name == "probefunc" ? probe_attr_.func
				   : e.name == "probename" ? probe_attr_.name
							   : builtin_attr(e.name);
		note_attr(a, "scalar", e.name, e.line);
		e.s.what = expr_sema::ref::builtin;
		e.s.id = b->id;
		e.s.type = types_.parse_type_string(b->type);
		return;
	}
	auto g = syms_.globals.find(e.name);
	if (g != syms_.globals.end()) {
		if (g->second.is_array)
			fail(tag::D_IDENT_BADREF, e.line,
			     "associative array '" + e.name + "' may not be referenced as scalar");
		e.s.what = expr_sema::ref::global;
		e.s.id = g->second.id;
		e.s.type = g->second.type;
		e.s.lvalue = true;
		return;
	}
	if (e.name == "args")
		fail(tag::D_IDENT_BADREF, e.line, "args[ ] must be indexed");
	if (find_subr(e.name) || find_action(e.name) || find_aggfunc(e.name))
		fail(tag::D_IDENT_BADREF, e.line, e.name + "( ) must be called as a function");
	fail(tag::D_IDENT_UNDEF, e.line, "failed to resolve " + e.name + ": Unknown variable name");
}

void expr_checker::check_var(expr &e)
{
	bool tls = e.kind == ek::tls_var;
	if (!tls && !cc_)
		fail(tag::D_IDENT_UNDEF, e.line,
		     "failed to resolve this->" + e.name + ": Unknown variable name");
	auto &table = tls ? syms_.tls : cc_->locals;
	auto it = table.find(e.name);
	const var_info *v;
	if (it == table.end()) {
		// Referenced before assignment: an int until assigned (illumos).
		var_info &nv = declare(table, e.name, tls ? DIFV_SCOPE_THREAD : DIFV_SCOPE_LOCAL,
				       false, types_.int_type(4, true), {}, e.line);
		nv.implicit = true;
		v = &nv;
	} else {
		v = &it->second;
	}
	if (v->is_array)
		fail(tag::D_IDENT_BADREF, e.line,
		     "associative array '" + e.name + "' may not be referenced as scalar");
	e.s.what = tls ? expr_sema::ref::tls : expr_sema::ref::local;
	e.s.id = v->id;
	e.s.type = v->type;
	e.s.lvalue = true;
}

void expr_checker::implicit_int(expr &x)
{
	// x++, x += n, a[k]++ on a variable never assigned: D declares it an
	// int (as illumos does for variables created by reference).
	if (x.kind == ek::ident && !syms_.globals.count(x.name) && !syms_.inlines.count(x.name) &&
	    !find_builtin(x.name) && !types_.enumerators().count(x.name) && x.name != "args")
		declare(syms_.globals, x.name, DIFV_SCOPE_GLOBAL, false, types_.int_type(4, true),
			{}, x.line)
			.implicit = true;
	if (x.kind == ek::index && !x.kids.empty()) {
		expr &b = *x.kids[0];
		bool tls = b.kind == ek::tls_var;
		if ((b.kind == ek::ident && b.name != "args" && !find_builtin(b.name) &&
		     !syms_.inlines.count(b.name)) ||
		    tls) {
			auto &table = tls ? syms_.tls : syms_.globals;
			if (!table.count(b.name)) {
				std::vector<type_ref> keys;
				for (size_t i = 1; i < x.kids.size(); i++) {
					check(*x.kids[i]);
					keys.push_back(x.kids[i]->s.type);
				}
				declare(table, b.name, tls ? DIFV_SCOPE_THREAD : DIFV_SCOPE_GLOBAL,
					true, types_.int_type(4, true), keys, x.line);
			}
		}
	}
}

void expr_checker::check_unary(expr &e)
{
	expr &x = *e.kids[0];
	if (e.kind == ek::unary && e.op == tk::amp && x.kind == ek::agg)
		fail(tag::D_ADDROF_VAR, e.line, "cannot take address of dynamic variable");
	if (e.kind == ek::incdec)
		implicit_int(x);
	if (e.kind == ek::unary && e.op == tk::amp && x.kind == ek::ident &&
	    x.name.find('`') != std::string::npos)
		check_ksym(x, true); // &`sym needs no type: a void * then
	else if (e.kind == ek::unary && e.op != tk::amp)
		check_operand(x);
	else
		check(x);
	const type_ref &t = x.s.type;
	const char *op = op_str(e.op);
	if (e.kind == ek::incdec) {
		if (!t->is_int() && !t->is_ptr())
			fail(tag::D_OP_SCALAR, e.line,
			     std::string("operator ") + op + " requires operand of scalar type");
		if (!x.s.lvalue || x.s.what == expr_sema::ref::builtin)
			fail(tag::D_OP_LVAL, e.line,
			     std::string("operator ") + op +
				     " requires modifiable lvalue as an operand");
		e.s.type = t;
		return;
	}
	switch (e.op) {
	case tk::minus:
	case tk::plus:
		if (!t->is_arith())
			fail(tag::D_OP_ARITH, e.line,
			     std::string("operator ") + op +
				     " requires an operand of arithmetic type");
		e.s.type = promote(t);
		if (x.s.is_const) {
			e.s.is_const = true;
			e.s.value = e.op == tk::minus ? -x.s.value : x.s.value;
		}
		return;
	case tk::tilde:
		if (!t->is_int())
			fail(tag::D_OP_INT, e.line,
			     std::string("operator ") + op +
				     " requires an operand of integral type");
		e.s.type = promote(t);
		if (x.s.is_const) {
			e.s.is_const = true;
			e.s.value = ~x.s.value;
			if (e.s.type->size == 4)
				e.s.value = e.s.type->is_signed ? static_cast<int32_t>(e.s.value)
								: static_cast<uint32_t>(e.s.value);
		}
		return;
	case tk::bang:
		if (!t->is_scalar() && !t->is_string())
			fail(tag::D_OP_SCALAR, e.line,
			     std::string("operator ") + op + " requires an operand of scalar type");
		e.s.type = types_.int_type(4, true);
		if (x.s.is_const) {
			e.s.is_const = true;
			e.s.value = !x.s.value;
		}
		return;
	case tk::star:
		if (!t->is_ptr() && !t->is_array())
			fail(tag::D_DEREF_NONPTR, e.line, "cannot dereference non-pointer type");
		if (t->ref->is_void())
			fail(tag::D_DEREF_VOID, e.line, "cannot dereference pointer to void");
		e.s.type = t->ref;
		e.s.lvalue = true;
		return;
	case tk::amp:
		if (x.s.what == expr_sema::ref::global || x.s.what == expr_sema::ref::tls ||
		    x.s.what == expr_sema::ref::local || x.s.what == expr_sema::ref::garray ||
		    x.s.what == expr_sema::ref::tarray || x.s.what == expr_sema::ref::builtin)
			fail(tag::D_ADDROF_VAR, e.line, "cannot take address of dynamic variable");
		if (x.s.bit_size)
			fail(tag::D_ADDROF_BITFIELD, e.line, "cannot take address of bit-field");
		if (!x.s.lvalue)
			fail(tag::D_ADDROF_LVAL, e.line,
			     "unacceptable operand for unary & operator");
		e.s.type = types_.pointer_to(t);
		return;
	default: fail(tag::D_SYNTAX, e.line, "syntax error");
	}
}

namespace {

int64_t fold(tk op, int64_t a, int64_t b, bool is_unsigned, bool &ok)
{
	auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
	ok = true;
	switch (op) {
	case tk::plus: return static_cast<int64_t>(ua + ub);
	case tk::minus: return static_cast<int64_t>(ua - ub);
	case tk::star: return static_cast<int64_t>(ua * ub);
	case tk::slash:
		if (b == 0) {
			ok = false;
			return 0;
		}
		return is_unsigned ? static_cast<int64_t>(ua / ub) : a / b;
	case tk::percent:
		if (b == 0) {
			ok = false;
			return 0;
		}
		return is_unsigned ? static_cast<int64_t>(ua % ub) : a % b;
	case tk::amp: return a & b;
	case tk::pipe: return a | b;
	case tk::caret: return a ^ b;
	case tk::shl: return static_cast<int64_t>(ua << (ub & 63));
	case tk::shr: return is_unsigned ? static_cast<int64_t>(ua >> (ub & 63)) : a >> (ub & 63);
	case tk::lt: return is_unsigned ? ua < ub : a < b;
	case tk::gt: return is_unsigned ? ua > ub : a > b;
	case tk::le: return is_unsigned ? ua <= ub : a <= b;
	case tk::ge: return is_unsigned ? ua >= ub : a >= b;
	case tk::eqeq: return a == b;
	case tk::ne: return a != b;
	case tk::land: return a && b;
	case tk::lor: return a || b;
	case tk::lxor: return !a != !b;
	default: ok = false; return 0;
	}
}

} // namespace

void expr_checker::check_binary(expr &e)
{
	// An aggregation in an expression is a dynamic variable (illumos
	// types it <DYN>): no operator takes one.
	if (e.kids[0]->kind == ek::agg || e.kids[1]->kind == ek::agg) {
		auto name = [this](expr &k) {
			if (k.kind == ek::agg)
				return std::string("dynamic variable");
			check(k);
			return k.s.type->name;
		};
		std::string l = name(*e.kids[0]), r = name(*e.kids[1]);
		fail(tag::D_OP_INCOMPAT, e.line,
		     "operands have incompatible types: \"" + l + "\" " + op_str(e.op) + " \"" + r +
			     "\"");
	}
	check(*e.kids[0]);
	check(*e.kids[1]);
	const type_ref &l = e.kids[0]->s.type, &r = e.kids[1]->s.type;
	const char *op = op_str(e.op);
	bool is_unsigned = false;
	switch (e.op) {
	case tk::plus:
	case tk::minus:
		if (l->is_ptr() && r->is_int()) {
			e.s.type = l;
			return;
		}
		if (e.op == tk::plus && l->is_int() && r->is_ptr()) {
			e.s.type = r;
			return;
		}
		if (e.op == tk::minus && l->is_ptr() && r->is_ptr()) {
			e.s.type = types_.named("long");
			return;
		}
		[[fallthrough]];
	case tk::star:
	case tk::slash:
		if (!l->is_arith() || !r->is_arith())
			fail(tag::D_OP_ARITH, e.line,
			     std::string("operator ") + op +
				     " requires operands of arithmetic type");
		e.s.type = arith_result(l, r);
		is_unsigned = !e.s.type->is_signed;
		break;
	case tk::percent:
	case tk::amp:
	case tk::pipe:
	case tk::caret:
		if (!l->is_int() || !r->is_int())
			fail(tag::D_OP_INT, e.line,
			     std::string("operator ") + op + " requires operands of integral type");
		e.s.type = arith_result(l, r);
		is_unsigned = !e.s.type->is_signed;
		break;
	case tk::shl:
	case tk::shr:
		if (!l->is_int() || !r->is_int())
			fail(tag::D_OP_INT, e.line,
			     std::string("operator ") + op + " requires operands of integral type");
		e.s.type = promote(l);
		is_unsigned = !e.s.type->is_signed;
		break;
	case tk::lt:
	case tk::gt:
	case tk::le:
	case tk::ge:
	case tk::eqeq:
	case tk::ne: {
		bool ls = l->is_string() || (r->is_string() && l->is_char_ptr_or_array());
		bool rs = r->is_string() || (l->is_string() && r->is_char_ptr_or_array());
		if (ls || rs) {
			// A string compares with a string, or with NULL (the
			// constant 0: an unset string or a subroutine's NULL).
			if (!(ls && rs) && !(ls && is_null_constant(*e.kids[1])) &&
			    !(rs && is_null_constant(*e.kids[0])))
				incompat(e, l, op, r);
		} else if (l->is_arith() && r->is_arith()) {
			is_unsigned = !arith_result(l, r)->is_signed;
		} else if (l->is_ptr() && (r->is_ptr() || r->is_int())) {
			is_unsigned = true;
		} else if (r->is_ptr() && l->is_int()) {
			is_unsigned = true;
		} else if (l->resolved == r->resolved && l->is_scalar()) {
		} else {
			incompat(e, l, op, r);
		}
		e.s.type = types_.int_type(4, true);
		break;
	}
	case tk::land:
	case tk::lor:
	case tk::lxor:
		if (!l->is_scalar() || !r->is_scalar())
			fail(tag::D_OP_SCALAR, e.line,
			     std::string("operator ") + op + " requires operands of scalar type");
		e.s.type = types_.int_type(4, true);
		break;
	default: fail(tag::D_SYNTAX, e.line, "syntax error");
	}
	if (e.kids[0]->s.is_const && e.kids[1]->s.is_const && l->is_int() && r->is_int()) {
		if ((e.op == tk::slash || e.op == tk::percent) && e.kids[1]->s.value == 0)
			fail(tag::D_DIV_ZERO, e.line, "expression contains division by zero");
		bool ok;
		int64_t v = fold(e.op, e.kids[0]->s.value, e.kids[1]->s.value, is_unsigned, ok);
		if (ok) {
			if (e.s.type->size == 4)
				v = e.s.type->is_signed
					    ? static_cast<int32_t>(v)
					    : static_cast<int64_t>(static_cast<uint32_t>(v));
			e.s.is_const = true;
			e.s.value = v;
		}
	}
}

bool is_null_constant(const expr &e)
{
	return e.s.is_const && e.s.type && e.s.type->is_int() && e.s.value == 0;
}

namespace {

// illumos dt_node_is_ptrcompat(): two pointers (or arrays) are compatible
// when either points to void or both point to the same type
// (ctf_type_compat(): typedefs resolved).
bool pointees_compatible(const type_ref &a, const type_ref &b)
{
	if (!a->ref || !b->ref || a->ref->is_void() || b->ref->is_void())
		return true;
	return a->ref->resolved == b->ref->resolved;
}

} // namespace

bool expr_checker::assignable(const type_ref &to, const type_ref &from, const expr *rhs) const
{
	// illumos dt_node_is_argcompat(): integers with integers, strings with
	// strings and char arrays/pointers, pointers with pointers; an integer
	// only as the constant 0 (NULL), which also clears a string or a
	// struct held in a dynamic variable.
	bool null = rhs && is_null_constant(*rhs);
	if (to->is_int())
		return from->is_int();
	if (to->is_string())
		return from->is_string() || from->is_char_ptr_or_array() || null;
	if (to->is_char_ptr_or_array() && from->is_string())
		return true; // dt_node_is_strcompat() both ways: a char * holds its address
	if (to->is_ptr())
		return ((from->is_ptr() || from->is_array()) && pointees_compatible(to, from)) ||
		       null || (from->is_int() && !rhs);
	return to->resolved == from->resolved || (to->is_sou() && null);
}

void expr_checker::check_assign(expr &e)
{
	expr &lhs = *e.kids[0];
	expr &rhs = *e.kids[1];
	check(rhs);
	const type_ref &rt = rhs.s.type;
	const char *op = op_str(e.op);
	bool compound = e.op != tk::assign;
	if (rt->is_void())
		fail(tag::D_OP_INCOMPAT, e.line, "void cannot be assigned");
	if (lhs.kind == ek::agg)
		fail(tag::D_AGG_FUNC, e.line,
		     "@" + lhs.name + " must be assigned the result of an aggregating function");
	std::map<std::string, var_info> *table = nullptr;
	uint8_t scope = DIFV_SCOPE_GLOBAL;
	if (lhs.kind == ek::ident && !syms_.inlines.count(lhs.name) &&
	    !types_.enumerators().count(lhs.name)) {
		if (find_builtin(lhs.name))
			fail(tag::D_OP_WRITE, e.line,
			     std::string("operator ") + op +
				     " can only be applied to a writable variable");
		table = &syms_.globals;
	} else if (lhs.kind == ek::tls_var) {
		table = &syms_.tls;
		scope = DIFV_SCOPE_THREAD;
	} else if (lhs.kind == ek::local_var) {
		if (!cc_)
			fail(tag::D_IDENT_UNDEF, e.line,
			     "this-> variables are only valid in a clause");
		table = &cc_->locals;
		scope = DIFV_SCOPE_LOCAL;
	}
	if (compound)
		implicit_int(lhs);
	if (table) {
		auto it = table->find(lhs.name);
		if (it == table->end()) {
			if (compound)
				check(lhs);
			else
				declare(*table, lhs.name, scope, false, rt, {}, e.line);
		} else if (!it->second.is_array && !compound && it->second.implicit) {
			// Implicitly declared by a reference: the first assignment
			// gives its type.
			if (!assignable(it->second.type, rt, &rhs))
				it->second.type = rt;
			it->second.implicit = false;
		}
		check(lhs);
	} else if (lhs.kind == ek::index) {
		check_index(lhs, true);
		if (!lhs.s.type) {
			expr &b = *lhs.kids[0];
			auto &t = b.kind == ek::tls_var ? syms_.tls : syms_.globals;
			t[b.name].type = rt;
			lhs.s.type = rt;
		}
	} else {
		check(lhs);
		if (!lhs.s.lvalue)
			fail(tag::D_OP_LVAL, e.line,
			     std::string("operator ") + op +
				     " requires modifiable lvalue as an operand");
		// Memory lvalues (*p, p[i], s.m, p->m) are stored through their address;
		// the VM allows only scratch and by-ref variable storage (dtrace_canstore).
		bool memory = lhs.s.what == expr_sema::ref::none && lhs.kind != ek::ident;
		if (!memory && lhs.s.what != expr_sema::ref::global &&
		    lhs.s.what != expr_sema::ref::tls && lhs.s.what != expr_sema::ref::local)
			fail(tag::D_OP_WRITE, e.line,
			     std::string("operator ") + op +
				     " can only be applied to a writable variable");
	}
	const type_ref &lt = lhs.s.type;
	if (compound) {
		tk b = compound_base(e.op);
		if ((b == tk::plus || b == tk::minus) && (!lt->is_int() || !rt->is_int())) {
			// illumos dt_cook_op2() DT_TOK_ADD_EQ/SUB_EQ: only a pointer to
			// an object of known size moves, by an integer or a compatible
			// pointer.
			if (lt->is_string() || rt->is_string())
				incompat(e, lt, op, rt);
			if (!lt->is_ptr() || !lt->ref || lt->ref->is_void() ||
			    lt->ref->k == ctype::kind::func)
				fail(tag::D_OP_VFPTR, e.line,
				     std::string("operator ") + op +
					     " requires left-hand scalar operand of known size");
			if (!rt->is_int() && !assignable(lt, rt))
				incompat(e, lt, op, rt);
		}
		bool ptr_ok = (b == tk::plus || b == tk::minus) && lt->is_ptr() && rt->is_int();
		bool intonly = b == tk::percent || b == tk::amp || b == tk::pipe ||
			       b == tk::caret || b == tk::shl || b == tk::shr;
		if (!ptr_ok && intonly && (!lt->is_int() || !rt->is_int()))
			fail(tag::D_OP_INT, e.line,
			     std::string("operator ") + op + " requires operands of integral type");
		if (!ptr_ok && (!lt->is_arith() || !rt->is_arith()))
			fail(tag::D_OP_ARITH, e.line,
			     std::string("operator ") + op +
				     " requires operands of arithmetic type");
	} else if (!assignable(lt, rt, &rhs)) {
		incompat(e, lt, op, rt);
	}
	e.s.type = lt;
}

// uregs[R_x]: the interrupted user thread's registers, indexed by the
// constants of the D library's regs.d (x86_64: the struct pt_regs slots,
// then ds, es, fs base, gs base and the trap number, R_TRAPNO = 25). The
// index is an integer constant, checked here as illumos does.
constexpr int64_t k_uregs_last = 25;
constexpr int64_t k_uregs_last_pt_regs = 20; // sizeof(struct pt_regs) / 8 - 1

void expr_checker::check_uregs(expr &e, bool lvalue)
{
	if (lvalue)
		fail(tag::D_OP_WRITE, e.line,
		     "operator = can only be applied to a writable variable");
	size_t nkeys = e.kids.size() - 1;
	if (nkeys != 1)
		fail(tag::D_PROTO_LEN, e.line,
		     "uregs[ ] prototype mismatch: " + std::to_string(nkeys) +
			     (nkeys == 1 ? " arg " : " args ") + "passed, 1 expected");
	expr &ix = *e.kids[1];
	check(ix);
	if (!ix.s.is_const || !ix.s.type->is_int())
		fail(tag::D_PROTO_ARG, e.line,
		     "uregs[ ] argument #1 is incompatible with prototype:\n\tprototype: "
		     "integer constant\n\t argument: " +
			     ix.s.type->name);
	if (ix.s.value < 0 || ix.s.value > k_uregs_last)
		fail(tag::D_UNKNOWN, e.line,
		     "uregs[]: index out of bounds (" + std::to_string(ix.s.value) + ")");
	e.s.type = types_.named("uint64_t");
	if (ix.s.value <= k_uregs_last_pt_regs) {
		e.s.what = expr_sema::ref::uregs;
		e.s.id = static_cast<uint32_t>(ix.s.value);
		return;
	}
	// The slots after pt_regs: curthread->thread.<member>, from BTF.
	static const char *const k_thread_members[] = {"ds", "es", "fsbase", "gsbase", "trap_nr"};
	if (!cc_)
		fail(tag::D_UNKNOWN, e.line,
		     "uregs[] may not be referenced outside of a probe clause");
	auto cur = std::make_unique<expr>();
	cur->kind = ek::ident;
	cur->name = "curthread";
	cur->line = e.line;
	auto thr = std::make_unique<expr>();
	thr->kind = ek::arrow;
	thr->name = "thread";
	thr->line = e.line;
	thr->kids.push_back(std::move(cur));
	auto mem = std::make_unique<expr>();
	mem->kind = ek::member;
	mem->name = k_thread_members[ix.s.value - k_uregs_last_pt_regs - 1];
	mem->line = e.line;
	mem->kids.push_back(std::move(thr));
	check(*mem);
	e.s.what = expr_sema::ref::inline_;
	e.s.inl = mem.get();
	cc_->synth.push_back(std::move(mem));
}

void expr_checker::check_index(expr &e, bool lvalue)
{
	expr &base = *e.kids[0];
	size_t nkeys = e.kids.size() - 1;
	if (base.kind == ek::agg) // illumos dt_cook_op2(), DT_TOK_LBRAC
		fail(tag::D_AGG_MDIM, e.line,
		     "improper attempt to reference @" + base.name +
			     " as a multi-dimensional array");
	if (base.kind == ek::ident && base.name == "args" && !syms_.globals.count("args")) {
		note_attr(probe_attr_.args, "associative array", "args", e.line);
		if (lvalue)
			fail(tag::D_OP_WRITE, e.line,
			     "operator = can only be applied to a writable variable");
		if (nkeys != 1)
			fail(tag::D_PROTO_LEN, e.line,
			     "args[ ] prototype mismatch: " + std::to_string(nkeys) +
				     (nkeys == 1 ? " arg " : " args ") + "passed, 1 expected");
		expr &ix = *e.kids[1];
		check(ix);
		if (!ix.s.is_const || !ix.s.type->is_int())
			fail(tag::D_PROTO_ARG, e.line,
			     "args[ ] argument #1 is incompatible with prototype:\n\tprototype: "
			     "integer constant\n\t argument: " +
				     ix.s.type->name);
		if (!cc_)
			fail(tag::D_ARGS_NONE, e.line,
			     "args[ ] may not be referenced outside of a probe clause");
		if (others_differ_ && ix.s.value >= 0 && others_differ_(ix.s.value)) {
			// One compilation serves all the clause's descriptions
			// (illumos compiles one per description): all are named.
			std::string descs;
			for (const probe_desc &d : cc_->descs)
				descs += (descs.empty() ? "" : ",") + d.str();
			fail(tag::D_ARGS_MULTI, e.line,
			     "args[ ] may not be referenced because probe description " + descs +
				     " matches an unstable set of probes");
		}
		int64_t n = ix.s.value;
		e.s.what = expr_sema::ref::args;
		e.s.id = static_cast<uint32_t>(n);
		if (n < 0 || (have_probe_ && static_cast<size_t>(n) >= args_.size()))
			fail(tag::D_ARGS_IDX, e.line,
			     "index " + std::to_string(n) + " is out of range for " +
				     (cc_->descs.empty() ? std::string("probe")
							 : cc_->descs[0].str()) +
				     " args[ ]");
		type_ref t = types_.named("int64_t");
		if (static_cast<size_t>(n) < args_.size()) {
			const arg_desc &ad = args_[static_cast<size_t>(n)];
			// args[n] reads the native argument it is built from (illumos
			// dt_cg_array_op(): pr_mapping), e.g. signal-send's args[2] is
			// its native argument 1.
			if (ad.mapping >= 0)
				e.s.id = static_cast<uint32_t>(ad.mapping);
			t = types_.parse_type_string(ad.native);
			if (!ad.xlate.empty()) {
				// A translated argument: members come from the translator.
				type_ref xt = types_.parse_type_string(ad.xlate);
				type_ref out = xt->is_ptr() ? xt->ref : xt;
				int x = out->is_sou() ? find_xlator(out, t) : -1;
				if (x >= 0) {
					t = xt;
					e.s.value = x + 1;
				}
			}
		}
		e.s.type = t;
		return;
	}
	if (base.kind == ek::ident && base.name == "uregs" && !syms_.globals.count("uregs")) {
		check_uregs(e, lvalue);
		return;
	}
	auto inl = base.kind == ek::ident ? syms_.inlines.find(base.name) : syms_.inlines.end();
	if (inl != syms_.inlines.end() && !inl->second.params.empty()) {
		// An inline with parameters: its value, the arguments bound.
		const inline_info &ii = inl->second;
		if (lvalue)
			fail(tag::D_OP_WRITE, e.line,
			     "operator = can only be applied to a writable variable");
		if (nkeys != ii.params.size())
			fail(tag::D_PROTO_LEN, e.line,
			     base.name + "[ ] prototype mismatch: " + std::to_string(nkeys) +
				     (nkeys == 1 ? " arg " : " args ") + "passed, " +
				     std::to_string(ii.params.size()) + " expected");
		for (size_t i = 0; i < nkeys; i++) {
			expr &a = *e.kids[i + 1];
			check(a);
			if (!assignable(ii.param_types[i], a.s.type))
				fail(tag::D_PROTO_ARG, e.line,
				     base.name + "[ ] argument #" + std::to_string(i + 1) +
					     " is incompatible with prototype:\n\tprototype: " +
					     ii.param_types[i]->name +
					     "\n\t argument: " + a.s.type->name);
		}
		e.s.what = expr_sema::ref::inline_;
		e.s.inl = ii.value;
		e.s.type = ii.type;
		return;
	}
	if (base.kind == ek::local_var && (nkeys != 1 || !cc_ || !cc_->locals.count(base.name)))
		fail(tag::D_ARR_LOCAL, e.line,
		     "local variables may not be used as associative arrays: " + base.name);
	bool is_var_base = (base.kind == ek::ident && !syms_.inlines.count(base.name) &&
			    !find_builtin(base.name)) ||
			   base.kind == ek::tls_var;
	if (is_var_base) {
		bool tls = base.kind == ek::tls_var;
		auto &table = tls ? syms_.tls : syms_.globals;
		auto it = table.find(base.name);
		for (size_t i = 1; i < e.kids.size(); i++)
			check(*e.kids[i]);
		if (it == table.end() ||
		    (!it->second.is_array && tls && it->second.type->name == "int" && lvalue)) {
			if (!lvalue)
				fail(tag::D_IDENT_UNDEF, e.line,
				     "failed to resolve " + std::string(tls ? "self->" : "") +
					     base.name + ": Unknown variable name");
			if (it != table.end())
				table.erase(it);
			// The type comes from the assignment: our parent sets it.
			std::vector<type_ref> keys;
			for (size_t i = 1; i < e.kids.size(); i++)
				keys.push_back(e.kids[i]->s.type);
			declare(table, base.name, tls ? DIFV_SCOPE_THREAD : DIFV_SCOPE_GLOBAL, true,
				types_.int_type(4, true), keys, e.line);
			it = table.find(base.name);
			it->second.type = nullptr; // filled below from the assigned value
		}
		var_info &v = it->second;
		if (v.is_array) {
			if (v.keys.size() != nkeys)
				fail(tag::D_PROTO_LEN, e.line,
				     base.name +
					     "[ ] prototype mismatch: " + std::to_string(nkeys) +
					     (nkeys == 1 ? " key " : " keys ") + "passed, " +
					     std::to_string(v.keys.size()) + " expected");
			for (size_t i = 0; i < nkeys; i++) {
				const type_ref &kt = v.keys[i];
				const type_ref &at = e.kids[i + 1]->s.type;
				if (!assignable(kt, at))
					fail(tag::D_PROTO_ARG, e.line,
					     base.name + "[ ] key #" + std::to_string(i + 1) +
						     " is incompatible with prototype:\n\tprototype: " +
						     kt->name + "\n\t      key: " + at->name);
			}
			e.s.what = tls ? expr_sema::ref::tarray : expr_sema::ref::garray;
			e.s.id = v.id;
			e.s.lvalue = true;
			if (!v.type) {
				// Declared by this assignment: the parent assign has checked rhs.
				e.s.type = nullptr;
				return;
			}
			e.s.type = v.type;
			return;
		}
		// A scalar variable indexed: pointer/array indexing below.
		if (nkeys != 1)
			fail(tag::D_ARR_BADREF, e.line,
			     "cannot access scalar " + base.name + " as an associative array");
	}
	check(base);
	const type_ref &bt = base.s.type;
	if (nkeys != 1)
		fail(tag::D_SYNTAX, e.line, "operator [ ] requires one index");
	check(*e.kids[1]);
	if (bt->is_string()) {
		e.s.type = types_.named("char");
		return;
	}
	if (!bt->is_ptr() && !bt->is_array())
		fail(tag::D_OP_PTR, e.line,
		     "operator [ ] may not be applied to non-pointer type: " + bt->name);
	if (!e.kids[1]->s.type->is_int())
		fail(tag::D_OP_INT, e.line, "operator [ ] requires an index of integral type");
	const expr &ix = *e.kids[1];
	if (bt->is_array() && bt->count > 0 && ix.s.is_const &&
	    (ix.s.value < 0 || static_cast<uint64_t>(ix.s.value) >= bt->count))
		fail(tag::D_ARR_BOUNDS, e.line,
		     "index outside array bounds: " + std::to_string(ix.s.value) + ", max is " +
			     std::to_string(bt->count));
	e.s.type = bt->ref;
	e.s.lvalue = true;
}

// args->NAME: the probe's argument called NAME, i.e. args[k] (a
// tracepoint's fields by name, as bpftrace's tracepoint args; the sdt
// provider names every argument). False when `e` is not of that form or
// the probe names no argument, for the usual "args[ ] must be indexed".
bool expr_checker::check_named_arg(expr &e)
{
	expr &b = *e.kids[0];
	if (e.kind != ek::arrow || b.kind != ek::ident || b.name != "args" ||
	    syms_.globals.count("args") || !cc_)
		return false;
	auto it = std::find_if(args_.begin(), args_.end(),
			       [&](const arg_desc &a) { return a.name == e.name; });
	if (it != args_.end())
		note_attr(probe_attr_.args, "associative array", "args", e.line);
	if (it == args_.end()) {
		if (std::none_of(args_.begin(), args_.end(),
				 [](const arg_desc &a) { return !a.name.empty(); }))
			return false;
		fail(tag::D_TYPE_MEMBER, e.line,
		     e.name + " is not an argument of " +
			     (cc_->descs.empty() ? std::string("probe") : cc_->descs[0].str()) +
			     " (args->NAME names one of its arguments)");
	}
	auto ix = std::make_unique<expr>();
	ix->kind = ek::int_lit;
	ix->value = static_cast<uint64_t>(it - args_.begin());
	ix->line = e.line;
	e.kind = ek::index;
	e.name.clear();
	e.kids.push_back(std::move(ix));
	check_index(e, false);
	return true;
}

void expr_checker::check_member(expr &e)
{
	if (check_named_arg(e))
		return;
	expr &b = *e.kids[0];
	check(b);
	type_ref t = b.s.type;
	// A translated value: xlate<T>(x).m, xlate<T *>(x)->m, args[n]->m.
	// Also through an inline standing for xlate<>() (curpsinfo).
	const expr *xb = &b;
	while ((xb->kind == ek::ident || xb->kind == ek::index) &&
	       xb->s.what == expr_sema::ref::inline_ && xb->s.inl &&
	       (xb->s.inl->s.what == expr_sema::ref::xlate ||
		(xb->s.inl->kind == ek::ident && xb->s.inl->s.what == expr_sema::ref::inline_)))
		xb = xb->s.inl;
	bool xl_args = b.s.what == expr_sema::ref::args && b.s.value > 0;
	if ((xb->s.what == expr_sema::ref::xlate || xl_args) &&
	    (e.kind == ek::arrow) == t->is_ptr()) {
		uint32_t xid = xl_args ? static_cast<uint32_t>(b.s.value - 1) : xb->s.id;
		const translator_info &x = syms_.xlators[xid];
		auto m = x.members.find(e.name);
		type_ref out = t->is_ptr() ? t->ref : t;
		if (m == x.members.end()) {
			if (!out->find_member(e.name))
				fail(tag::D_TYPE_MEMBER, e.line,
				     e.name + " is not a member of " + out->name);
			fail(tag::D_XLATE_NOCONV, e.line,
			     "translator does not define conversion for member: " + e.name);
		}
		const member *om = out->find_member(e.name);
		e.s.what = expr_sema::ref::xlate_member;
		e.s.inl = m->second;
		e.s.id = xid;
		e.s.type = om ? om->type : m->second->s.type;
		return;
	}
	if (e.kind == ek::arrow) {
		if (!t->is_ptr())
			fail(tag::D_OP_PTR, e.line, "operator -> must be applied to a pointer");
		t = t->ref;
	}
	// illumos dt_cook_op2() DT_TOK_PTR / DT_TOK_DOT.
	if (!t->is_sou() && e.kind == ek::arrow)
		fail(tag::D_OP_SOU, e.line,
		     "operator -> cannot be applied to pointer to type \"" + t->name +
			     "\"; must be applied to a struct or union pointer");
	if (!t->is_sou())
		fail(tag::D_OP_SOU, e.line,
		     "operator . cannot be applied to type \"" + t->name +
			     "\"; must be applied to a struct or union");
	if (!t->complete)
		fail(tag::D_OP_INCOMPLETE, e.line,
		     "operator " + std::string(e.kind == ek::arrow ? "->" : ".") +
			     " cannot be applied to a forward declaration: no " + t->name +
			     " definition is available");
	const member *m = t->find_member(e.name);
	if (!m)
		fail(tag::D_TYPE_MEMBER, e.line, e.name + " is not a member of " + t->name);
	e.s.type = m->type;
	e.s.value = m->offset;
	e.s.lvalue = true;
	if (m->bit_size) {
		// Read with a load, a shift and a mask; written (in D's own
		// variables) by a read-modify-write of the bytes holding it.
		if (m->bit_off + m->bit_size > 64)
			fail(tag::D_TYPE_ERR, e.line,
			     "bit-field " + e.name + " spans more than 64 bits");
		// Accessed as an aligned unit of 1, 2, 4 or 8 bytes holding it
		// (the VM faults on unaligned loads): move the offset down to
		// the unit's alignment and count the bits from there.
		uint32_t off = m->offset, bit = m->bit_off;
		for (uint32_t n = 1; n <= 8; n *= 2) {
			uint32_t at = off & ~(n - 1);
			uint32_t nb = bit + (off - at) * 8;
			if (nb + m->bit_size <= n * 8 || n == 8) {
				e.s.value = at;
				bit = nb;
				break;
			}
		}
		if (bit + m->bit_size > 64)
			fail(tag::D_TYPE_ERR, e.line,
			     "bit-field " + e.name + " spans more than 64 bits");
		e.s.bit_off = static_cast<uint8_t>(bit);
		e.s.bit_size = static_cast<uint8_t>(m->bit_size);
	}
}

void expr_checker::check_subr_args(expr &e, const subr_proto &p)
{
	int argc = static_cast<int>(e.kids.size());
	int max = static_cast<int>(p.params.size());
	int min = max - p.optional;
	if (argc < min || argc > max) {
		std::string exp = min == max   ? std::to_string(min)
				  : argc < min ? "at least " + std::to_string(min)
					       : "at most " + std::to_string(max);
		fail(tag::D_PROTO_LEN, e.line,
		     e.name + "( ) prototype mismatch: " + std::to_string(argc) +
			     (argc == 1 ? " arg " : " args ") + "passed, " + exp + " expected");
	}
	for (int i = 0; i < argc; i++) {
		expr &a = *e.kids[static_cast<size_t>(i)];
		std::string pn = p.params[static_cast<size_t>(i)];
		std::string proto = pn == "string" ? "char *" : pn;
		auto mismatch = [&](const std::string &arg) {
			fail(tag::D_PROTO_ARG, e.line,
			     e.name + "( ) argument #" + std::to_string(i + 1) +
				     " is incompatible with prototype:\n\tprototype: " + proto +
				     "\n\t argument: " + arg);
		};
		// An action as an argument: illumos types it void.
		if (is_action_call(a))
			mismatch("void");
		check(a);
		const type_ref &at = a.s.type;
		bool ok;
		if (pn == "string") // char *: an integer constant 0 (NULL) converts, as in C
			ok = at->is_string() || at->is_char_ptr_or_array() ||
			     (at->is_int() && a.s.is_const && a.s.value == 0);
		else if (pn == "void *")
			// A string is a char array: it converts to void * (illumos
			// dt_node_is_ptrcompat()), as does any pointer or integer.
			ok = at->is_ptr() || at->is_int() || at->is_array() || at->is_string();
		else if (pn.rfind("struct ", 0) == 0)
			ok = at->is_ptr() || at->is_int();
		else
			ok = at->is_int() || (pn == "uintptr_t" && at->is_ptr());
		if (!ok)
			mismatch(at->name);
	}
}

bool expr_checker::is_action_call(const expr &e)
{
	return e.kind == ek::call && !find_subr(e.name) && find_action(e.name);
}

namespace {

// How many arguments each action's prototype takes (illumos dt_open.c's
// _dtrace_globals): {min, max}, max -1 for a variable list.
std::pair<int, int> action_arity(act a)
{
	switch (a) {
	case act::printf:
	case act::printa:
	case act::system: return {1, -1};
	case act::tracemem: return {2, 3};
	case act::setopt: return {1, 2};
	case act::stack: return {0, 1};
	case act::ustack:
	case act::jstack: return {0, 2};
	case act::trunc: return {1, 2};
	case act::normalize: return {2, 2};
	case act::freopen: return {1, -1};
	case act::stop:
	case act::breakpoint:
	case act::panic: return {0, 0};
	default: return {1, 1};
	}
}

} // namespace

// An operand that is an action call: illumos cooks it against the action's
// prototype (D_PROTO_LEN) and types it void, so that the operator applied
// to it then refuses a void operand with its own diagnostic.
void expr_checker::check_operand(expr &x)
{
	if (!is_action_call(x)) {
		check(x);
		return;
	}
	auto [lo, hi] = action_arity(find_action(x.name)->a);
	int argc = static_cast<int>(x.kids.size());
	if (argc < lo || (hi >= 0 && argc > hi)) {
		std::string exp = lo == hi    ? std::to_string(lo)
				  : argc < lo ? "at least " + std::to_string(lo)
					      : "at most " + std::to_string(hi);
		fail(tag::D_PROTO_LEN, x.line,
		     x.name + "( ) prototype mismatch: " + std::to_string(argc) +
			     (argc == 1 ? " arg " : " args ") + "passed, " + exp + " expected");
	}
	x.s.type = types_.void_type();
}

void expr_checker::check_call(expr &e)
{
	if (const subr_proto *p = find_subr(e.name)) {
		check_subr_args(e, *p);
		note_attr(builtin_attr(e.name), "subroutine", e.name, e.line);
		e.s.what = expr_sema::ref::subr;
		e.s.id = p->id;
		e.s.type = types_.parse_type_string(p->rtype);
		return;
	}
	if (find_action(e.name))
		fail(tag::D_OP_ACT, e.line,
		     e.name + "( ) may not be used in an expression: it is an action");
	if (find_aggfunc(e.name))
		fail(tag::D_AGG_FUNC, e.line,
		     e.name + "( ) may only be used as the value of an aggregation");
	// illumos dt_node_func(): a name nothing defines.
	fail(tag::D_FUNC_UNDEF, e.line, "undefined function name: " + e.name);
}

} // namespace dt::compiler
