// SPDX-License-Identifier: MIT
//
// compiler/codegen/codegen.cc - expression code generation (illumos
// dt_cg.c's shapes: compare-and-branch for relational operators, short
// circuits for && || ^^, shifts for integer narrowing) and the program
// layout (see codegen.hpp).
#include "codegen.hpp"

#include "../diag.hpp"
#include "dif_builder.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>

namespace dt::compiler {

namespace {

class expr_gen {
public:
	expr_gen(symbols &syms, const checked_clause *cc) : syms_(syms), cc_(cc), types_(syms.types)
	{
	}

	uint8_t gen(expr &e);
	dif_builder &b() { return b_; }
	void narrow(uint8_t r, const type_ref &to, const type_ref &from, uint32_t line);
	void normalize(uint8_t r, const expr &e);
	void truncate(uint8_t r, const type_ref &t, uint32_t line);

private:
	uint8_t gen_addr(expr &e);
	dif_builder::reloc symbol_reloc(const expr &e);
	uint8_t load_bitfield(expr &e);
	uint8_t load(uint8_t addr, const type_ref &t, uint32_t line);
	uint8_t gen_binary(expr &e);
	uint8_t gen_compare(expr &e);
	uint8_t gen_logical(expr &e);
	uint8_t gen_assign(expr &e);
	void store_mem(expr &lhs, uint8_t r);
	void store_string(expr &lhs, uint8_t r);
	void store_bitfield(expr &lhs, uint8_t r);
	uint8_t gen_incdec(expr &e);
	uint8_t gen_call(expr &e);
	uint8_t gen_xlate(expr &e);
	uint8_t gen_ternary(expr &e);
	void push_tuple(std::vector<expr *> keys, uint32_t line);
	uint8_t load_var(expr &e, uint8_t rd);
	void store_var(expr &lhs, uint8_t r);
	const var_info *var_of(const expr &e) const;
	void bind_params(expr &ix);
	uint8_t arith(tk op, uint8_t a, uint8_t b, const type_ref &t, uint32_t line);
	void gen_pair(expr &l, expr &r, uint8_t &a, uint8_t &b);
	uint8_t gen_keeping(expr &e, const std::vector<uint8_t *> &held);
	void gen_args(const std::vector<expr *> &args, const std::vector<size_t> &order,
		      uint32_t line, const std::function<void(size_t, uint8_t)> &push);
	[[nodiscard]] uint32_t spill_base() const;
	void spill(uint32_t id, uint8_t r, bool store);

	symbols &syms_;
	const checked_clause *cc_;
	type_table &types_;
	dif_builder b_;
	std::vector<std::pair<std::string, expr *>> xl_bind_; // translator inputs in scope
	uint32_t spills_ = 0;				      // spill slots in use (gen_keeping)
};

// name[args] of an inline with parameters: each parameter names its
// argument (evaluated in the caller's scope) while the value is made.
void expr_gen::bind_params(expr &ix)
{
	auto in = syms_.inlines.find(ix.kids[0]->name);
	if (in == syms_.inlines.end())
		return;
	for (size_t i = 0; i < in->second.params.size() && i + 1 < ix.kids.size(); i++)
		xl_bind_.emplace_back(in->second.params[i], ix.kids[i + 1].get());
}

// How many registers evaluating e takes (Sethi-Ullman numbers, estimated
// from the shapes gen() emits). The operand needing more is evaluated
// first, so `a + (b + (c + ...))` or strjoin(x, strjoin(y, ...)) needs two
// or three registers however deep it nests, where left-to-right order
// would hold one register per level and run out of DIF's seven; C leaves
// the order of operand evaluation unspecified, as D does.
uint32_t need(const expr &e)
{
	if (e.s.is_const && e.s.type && e.s.type->is_int())
		return 1;
	switch (e.kind) {
	case ek::int_lit:
	case ek::str_lit:
	case ek::tls_var:
	case ek::local_var: return 1;
	case ek::binary: {
		uint32_t nl = need(*e.kids[0]), nr = need(*e.kids[1]);
		if (e.op == tk::land || e.op == tk::lor)
			return std::max(nl, nr);
		return nl == nr ? nl + 1 : std::max(nl, nr);
	}
	case ek::call: {
		std::vector<uint32_t> n;
		for (const auto &k : e.kids)
			n.push_back(need(*k));
		std::sort(n.rbegin(), n.rend());
		uint32_t m = 1;
		for (size_t i = 0; i < n.size(); i++)
			m = std::max(m, n[i] + static_cast<uint32_t>(i));
		return m;
	}
	case ek::incdec: return std::max<uint32_t>(3, need(*e.kids[0]) + 2);
	default: {
		uint32_t m = 0;
		for (const auto &k : e.kids)
			m = std::max(m, need(*k));
		return m + 1;
	}
	}
}

// gen(e) while the values in the registers `held` stay live. Where e
// needs more of DIF's seven registers than are left, the attempt is
// undone and redone with the held values spilled to clause-local slots
// (spill_base()) and loaded again after:
// their registers may change. Nested spills take the next slots.
uint8_t expr_gen::gen_keeping(expr &e, const std::vector<uint8_t *> &held)
{
	const dif_builder::mark m = b_.here();
	const size_t nbind = xl_bind_.size();
	const uint32_t nspill = spills_;
	try {
		return gen(e);
	} catch (const d_error &x) {
		if (x.which != tag::EDT_NOREG || held.empty())
			throw;
		b_.rewind(m);
		xl_bind_.resize(nbind);
		spills_ = nspill;
	}
	const uint32_t base = spill_base();
	for (size_t i = 0; i < held.size(); i++) {
		spill(base + static_cast<uint32_t>(i), *held[i], true);
		b_.free(*held[i]);
	}
	spills_ += static_cast<uint32_t>(held.size());
	uint8_t r = gen(e);
	spills_ = nspill;
	for (size_t i = 0; i < held.size(); i++) {
		*held[i] = b_.alloc(e.line);
		spill(base + static_cast<uint32_t>(i), *held[i], false);
	}
	return r;
}

// The first free spill slot: clause-local ids past those of every clause's
// this-> variables (a slot shares no id with one of them).
uint32_t expr_gen::spill_base() const
{
	return syms_.first_spill + spills_;
}

// Register r to spill slot id (store) or back (load).
void expr_gen::spill(uint32_t id, uint8_t r, bool store)
{
	dtrace_diftype_t t{};
	t.dtdt_kind = DIF_TYPE_CTF;
	t.dtdt_size = 8;
	b_.use_var(id, DIFV_SCOPE_LOCAL, DIFV_KIND_SCALAR, "%spill" + std::to_string(id), t, store);
	b_.emit(store ? DIF_INSTR_STV(DIF_OP_STLS, id, r) : DIF_INSTR_LDV(DIF_OP_LDLS, id, r));
}

// Both operands of a binary operator into registers, the costlier first.
void expr_gen::gen_pair(expr &l, expr &r, uint8_t &a, uint8_t &b)
{
	if (need(r) > need(l)) {
		b = gen(r);
		a = gen_keeping(l, {&b});
	} else {
		a = gen(l);
		b = gen_keeping(r, {&a});
	}
}

const var_info *expr_gen::var_of(const expr &e) const
{
	const expr *v = &e;
	if (e.kind == ek::index)
		v = e.kids[0].get();
	const std::map<std::string, var_info> *t = nullptr;
	switch (e.s.what) {
	case expr_sema::ref::global:
	case expr_sema::ref::garray: t = &syms_.globals; break;
	case expr_sema::ref::tls:
	case expr_sema::ref::tarray: t = &syms_.tls; break;
	case expr_sema::ref::local: t = cc_ ? &cc_->locals : nullptr; break;
	default: return nullptr;
	}
	if (!t)
		return nullptr;
	auto it = t->find(v->name);
	return it == t->end() ? nullptr : &it->second;
}

void expr_gen::narrow(uint8_t r, const type_ref &to, const type_ref &from, uint32_t line)
{
	if (!to || !from || !to->is_int() || to->size >= 8 || r == 0)
		return;
	if (from->is_int() && from->size <= to->size && from->is_signed == to->is_signed)
		return;
	if (from->is_int() && from->size < to->size && !from->is_signed)
		return; // zero-extended already fits
	uint8_t s = b_.alloc(line);
	b_.setx(64 - to->size * 8, s);
	b_.emit(DIF_INSTR_FMT(DIF_OP_SLL, r, s, r));
	b_.emit(DIF_INSTR_FMT(to->is_signed ? DIF_OP_SRA : DIF_OP_SRL, r, s, r));
	b_.free(s);
}

// The D arithmetic of illumos: an operator computes in the 64-bit
// registers and its result, of a type narrower than 64 bits, keeps what
// overflowed: a store keeps what fits the variable (all of it in a
// 64-bit one), a record what fits the result's type; a cast first makes
// it a value of its own type (truncated, sign- or zero-extended).
void expr_gen::normalize(uint8_t r, const expr &e)
{
	const type_ref &t = e.s.type;
	if (!t || !t->is_int() || t->size >= 8 || e.s.is_const || r == 0)
		return;
	bool arith = (e.kind == ek::binary && e.op != tk::land && e.op != tk::lor &&
		      e.op != tk::lxor && e.op != tk::lt && e.op != tk::gt && e.op != tk::le &&
		      e.op != tk::ge && e.op != tk::eqeq && e.op != tk::ne) ||
		     (e.kind == ek::unary && (e.op == tk::minus || e.op == tk::tilde));
	if (arith)
		truncate(r, t, e.line);
}

// r becomes a value of integer type t: cut to its width, sign- or
// zero-extended.
void expr_gen::truncate(uint8_t r, const type_ref &t, uint32_t line)
{
	if (!t || !t->is_int() || t->size >= 8 || r == 0)
		return;
	uint8_t s = b_.alloc(line);
	b_.setx(64 - t->size * 8, s);
	b_.emit(DIF_INSTR_FMT(DIF_OP_SLL, r, s, r));
	b_.emit(DIF_INSTR_FMT(t->is_signed ? DIF_OP_SRA : DIF_OP_SRL, r, s, r));
	b_.free(s);
}

uint8_t expr_gen::load(uint8_t addr, const type_ref &t, uint32_t line)
{
	(void)line;
	// By reference: the address is the value (a string member holds its
	// characters; D has no FP registers).
	if (t->is_sou() || t->is_array() || t->is_string() || t->k == ctype::kind::floating)
		return addr;
	uint8_t op;
	switch (t->size) {
	case 1: op = t->is_signed ? DIF_OP_LDSB : DIF_OP_LDUB; break;
	case 2: op = t->is_signed ? DIF_OP_LDSH : DIF_OP_LDUH; break;
	case 4: op = t->is_signed ? DIF_OP_LDSW : DIF_OP_LDUW; break;
	default: op = DIF_OP_LDX; break;
	}
	b_.emit(DIF_INSTR_LOAD(op, addr, addr));
	return addr;
}

// A bit-field: the smallest load holding its bits, shifted down and
// masked (unsigned), or shifted up and arithmetically down (signed), as
// illumos dt_cg_field_get().
uint8_t expr_gen::load_bitfield(expr &e)
{
	const uint32_t need = e.s.bit_off + e.s.bit_size;
	const uint32_t n = need <= 8 ? 1 : need <= 16 ? 2 : need <= 32 ? 4 : 8;
	uint8_t r = load(gen_addr(e), syms_.types.int_type(n, false), e.line);
	uint8_t k = b_.alloc(e.line);
	if (e.s.type->is_signed) {
		b_.setx(64 - need, k);
		b_.emit(DIF_INSTR_FMT(DIF_OP_SLL, r, k, r));
		b_.setx(64 - e.s.bit_size, k);
		b_.emit(DIF_INSTR_FMT(DIF_OP_SRA, r, k, r));
	} else {
		if (e.s.bit_off) {
			b_.setx(e.s.bit_off, k);
			b_.emit(DIF_INSTR_FMT(DIF_OP_SRL, r, k, r));
		}
		if (e.s.bit_size < 64) {
			b_.setx((uint64_t{1} << e.s.bit_size) - 1, k);
			b_.emit(DIF_INSTR_FMT(DIF_OP_AND, r, k, r));
		}
	}
	b_.free(k);
	return r;
}

// `sym or mod`sym as a relocation would name it: the module that sema
// found it in (the kernel's own first when unscoped) and the name.
dif_builder::reloc expr_gen::symbol_reloc(const expr &e)
{
	size_t mark = e.name.rfind('`');
	std::string name = e.name.substr(mark + 1);
	std::optional<kernel_sym> ks = syms_.ksyms.find(e.name.substr(0, mark), name);
	return {0, ks ? ks->module : "vmlinux", name, e.line};
}

uint8_t expr_gen::gen_addr(expr &e)
{
	switch (e.kind) {
	case ek::unary:
		if (e.op == tk::star)
			return gen(*e.kids[0]);
		break;
	case ek::arrow:
	case ek::member: {
		uint8_t r = e.kind == ek::arrow ? gen(*e.kids[0]) : gen_addr(*e.kids[0]);
		if (e.s.value) {
			uint8_t o = b_.alloc(e.line);
			b_.setx(static_cast<uint64_t>(e.s.value), o);
			b_.emit(DIF_INSTR_FMT(DIF_OP_ADD, r, o, r));
			b_.free(o);
		}
		return r;
	}
	case ek::index: {
		if (e.s.what == expr_sema::ref::garray || e.s.what == expr_sema::ref::tarray)
			return load_var(e, b_.alloc(e.line)); // a by-ref element: its address
		uint8_t base = gen(*e.kids[0]);
		uint8_t ix = gen(*e.kids[1]);
		uint32_t sz = e.s.type->size ? e.s.type->size : 1;
		if (sz != 1) {
			uint8_t s = b_.alloc(e.line);
			b_.setx(sz, s);
			b_.emit(DIF_INSTR_FMT(DIF_OP_MUL, ix, s, ix));
			b_.free(s);
		}
		b_.emit(DIF_INSTR_FMT(DIF_OP_ADD, base, ix, base));
		b_.free(ix);
		return base;
	}
	case ek::ident:
		if (e.s.what == expr_sema::ref::ksym) {
			syms_.reads_kernel = true;
			uint8_t r = b_.alloc(e.line);
			b_.setx_symbol(static_cast<uint64_t>(e.s.value), r, symbol_reloc(e));
			return r;
		}
		break;
	default: break;
	}
	// A by-reference value (struct from a variable) is its address.
	return gen(e);
}

void expr_gen::push_tuple(std::vector<expr *> keys, uint32_t line)
{
	if (keys.size() > DIF_DTR_NREGS)
		fail(tag::EDT_NOTUPREG, line, "Insufficient tuple registers to generate code");
	std::vector<size_t> order(keys.size());
	for (size_t i = 0; i < order.size(); i++)
		order[i] = i;
	gen_args(keys, order, line, [&](size_t i, uint8_t r) {
		const type_ref &t = keys[i]->s.type;
		if (t->is_string()) {
			b_.emit(DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 0, r));
		} else if (t->is_sou() || t->is_array()) {
			uint8_t s = b_.alloc(line);
			b_.setx(t->size, s);
			b_.emit(DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_CTF, s, r));
			b_.free(s);
		} else {
			b_.emit(DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, r));
		}
	});
}

// The values of args (evaluated in `order`) onto the tuple stack, FLUSHTS
// first; push(i, r) pushes argument i from register r. All are evaluated
// before the first push (a nested call uses the tuple stack), so they are
// all in registers at once; where DIF's seven do not hold them, each value
// is kept in a spill slot instead and loaded again to be pushed.
void expr_gen::gen_args(const std::vector<expr *> &args, const std::vector<size_t> &order,
			uint32_t line, const std::function<void(size_t, uint8_t)> &push)
{
	const dif_builder::mark m = b_.here();
	const size_t nbind = xl_bind_.size();
	const uint32_t nspill = spills_;
	try {
		std::vector<uint8_t> regs(args.size());
		for (size_t i : order)
			regs[i] = gen(*args[i]);
		b_.emit(DIF_INSTR_FLUSHTS);
		for (size_t i = 0; i < args.size(); i++)
			push(i, regs[i]);
		for (uint8_t r : regs)
			b_.free(r);
		return;
	} catch (const d_error &x) {
		if (x.which != tag::EDT_NOREG)
			throw;
		b_.rewind(m);
		xl_bind_.resize(nbind);
		spills_ = nspill;
	}
	const uint32_t base = spill_base();
	spills_ += static_cast<uint32_t>(args.size());
	for (size_t i : order) {
		uint8_t r = gen(*args[i]);
		spill(base + static_cast<uint32_t>(i), r, true);
		b_.free(r);
	}
	b_.emit(DIF_INSTR_FLUSHTS);
	for (size_t i = 0; i < args.size(); i++) {
		uint8_t r = b_.alloc(line);
		spill(base + static_cast<uint32_t>(i), r, false);
		push(i, r);
		b_.free(r);
	}
	spills_ = nspill;
}

uint8_t expr_gen::load_var(expr &e, uint8_t rd)
{
	const var_info *v = var_of(e);
	dtrace_diftype_t t = types_.diftype(e.s.type);
	switch (e.s.what) {
	case expr_sema::ref::global:
		b_.use_var(v->id, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, v->name, t, false);
		b_.emit(DIF_INSTR_LDV(DIF_OP_LDGS, v->id, rd));
		break;
	case expr_sema::ref::tls:
		b_.use_var(v->id, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, v->name, t, false);
		b_.emit(DIF_INSTR_LDV(DIF_OP_LDTS, v->id, rd));
		if (e.s.type && (e.s.type->is_sou() || e.s.type->is_array())) {
			// As for array elements below: fault in a zeroed by-ref value.
			auto done = b_.new_label();
			b_.emit(DIF_INSTR_TST(rd));
			b_.branch(DIF_OP_BNE, done);
			b_.setx(e.s.type->size, rd);
			b_.emit(DIF_INSTR_ALLOCS(rd, rd));
			b_.emit(DIF_INSTR_STV(DIF_OP_STTS, v->id, rd));
			b_.emit(DIF_INSTR_LDV(DIF_OP_LDTS, v->id, rd));
			b_.place(done);
			b_.emit(DIF_INSTR_NOP);
		}
		break;
	case expr_sema::ref::local:
		b_.use_var(v->id, DIFV_SCOPE_LOCAL, DIFV_KIND_SCALAR, v->name, t, false);
		b_.emit(DIF_INSTR_LDV(DIF_OP_LDLS, v->id, rd));
		break;
	case expr_sema::ref::garray:
	case expr_sema::ref::tarray: {
		bool g = e.s.what == expr_sema::ref::garray;
		std::vector<expr *> keys;
		for (size_t i = 1; i < e.kids.size(); i++)
			keys.push_back(e.kids[i].get());
		push_tuple(keys, e.line);
		b_.use_var(v->id, g ? DIFV_SCOPE_GLOBAL : DIFV_SCOPE_THREAD, DIFV_KIND_ARRAY,
			   v->name, t, false);
		b_.emit(DIF_INSTR_LDV(g ? DIF_OP_LDGAA : DIF_OP_LDTAA, v->id, rd));
		if (e.s.type && (e.s.type->is_sou() || e.s.type->is_array())) {
			// A by-ref element not faulted in yet reads 0: store a zeroed
			// one (the tuple is still pushed) and load its address again.
			auto done = b_.new_label();
			b_.emit(DIF_INSTR_TST(rd));
			b_.branch(DIF_OP_BNE, done);
			b_.setx(e.s.type->size, rd);
			b_.emit(DIF_INSTR_ALLOCS(rd, rd));
			b_.emit(DIF_INSTR_STV(g ? DIF_OP_STGAA : DIF_OP_STTAA, v->id, rd));
			b_.emit(DIF_INSTR_LDV(g ? DIF_OP_LDGAA : DIF_OP_LDTAA, v->id, rd));
			b_.place(done);
			b_.emit(DIF_INSTR_NOP);
		}
		break;
	}
	default:
		if (e.s.what == expr_sema::ref::none && e.s.lvalue) {
			uint8_t a = gen(e); // a memory lvalue: its current value
			b_.emit(DIF_INSTR_MOV(a, rd));
			b_.free(a);
			break;
		}
		fail(tag::D_CG_DYN, e.line, "expression cannot be loaded");
	}
	return rd;
}

void expr_gen::store_var(expr &lhs, uint8_t r)
{
	if (lhs.s.what == expr_sema::ref::none && lhs.s.lvalue && lhs.kind != ek::ident) {
		store_mem(lhs, r);
		return;
	}
	const var_info *v = var_of(lhs);
	if (!v)
		fail(tag::D_OP_WRITE, lhs.line,
		     "operator = can only be applied to a writable variable");
	dtrace_diftype_t t = types_.diftype(v->type ? v->type : lhs.s.type);
	switch (lhs.s.what) {
	case expr_sema::ref::global:
		b_.use_var(v->id, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, v->name, t, true);
		b_.emit(DIF_INSTR_STV(DIF_OP_STGS, v->id, r));
		break;
	case expr_sema::ref::tls:
		b_.use_var(v->id, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, v->name, t, true);
		b_.emit(DIF_INSTR_STV(DIF_OP_STTS, v->id, r));
		break;
	case expr_sema::ref::local:
		b_.use_var(v->id, DIFV_SCOPE_LOCAL, DIFV_KIND_SCALAR, v->name, t, true);
		b_.emit(DIF_INSTR_STV(DIF_OP_STLS, v->id, r));
		break;
	case expr_sema::ref::garray:
	case expr_sema::ref::tarray: {
		bool g = lhs.s.what == expr_sema::ref::garray;
		std::vector<expr *> keys;
		for (size_t i = 1; i < lhs.kids.size(); i++)
			keys.push_back(lhs.kids[i].get());
		push_tuple(keys, lhs.line);
		b_.use_var(v->id, g ? DIFV_SCOPE_GLOBAL : DIFV_SCOPE_THREAD, DIFV_KIND_ARRAY,
			   v->name, t, true);
		b_.emit(DIF_INSTR_STV(g ? DIF_OP_STGAA : DIF_OP_STTAA, v->id, r));
		break;
	}
	default:
		fail(tag::D_OP_WRITE, lhs.line,
		     "operator = can only be applied to a writable variable");
	}
}

// A store through a memory lvalue's address (st{b,h,w,x}).
void expr_gen::store_mem(expr &lhs, uint8_t r)
{
	const type_ref &t = lhs.s.type;
	if (t->is_string()) {
		store_string(lhs, r);
		return;
	}
	if (lhs.s.bit_size) {
		store_bitfield(lhs, r);
		return;
	}
	uint8_t a = gen_addr(lhs);
	if (t->is_sou() || t->is_array()) {
		// A struct, union or array member: r is the value's address;
		// copy it whole (illumos dt_cg_asgn_op: copys).
		uint8_t n = b_.alloc(lhs.line);
		b_.setx(t->size, n);
		b_.emit(DIF_INSTR_COPYS(r, n, a));
		b_.free(n);
		b_.free(a);
		return;
	}
	uint8_t op;
	switch (t->size) {
	case 1: op = DIF_OP_STB; break;
	case 2: op = DIF_OP_STH; break;
	case 4: op = DIF_OP_STW; break;
	default: op = DIF_OP_STX; break;
	}
	b_.emit(DIF_INSTR_STORE(op, r, a));
	b_.free(a);
}

// A string member (of a struct in a variable, an associative array's
// element): its characters up to the member's size less one, then a NUL.
// illumos copies the member's size (dt_cg_store(): copys), which reads
// past a shorter source; the VM reads only DTrace-owned bytes, so the copy
// is the string's:
//
//	n = strlen(r); if (n > size - 1) n = size - 1
//	copys r, n, a;  stb %r0, [a + n]
void expr_gen::store_string(expr &lhs, uint8_t r)
{
	uint8_t a = gen_addr(lhs);
	uint8_t n = b_.alloc(lhs.line);
	b_.emit(DIF_INSTR_FLUSHTS);
	b_.emit(DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 0, r));
	b_.emit(DIF_INSTR_CALL(DIF_SUBR_STRLEN, n));
	uint8_t m = b_.alloc(lhs.line);
	b_.setx(lhs.s.type->size - 1, m);
	auto fits = b_.new_label();
	b_.emit(DIF_INSTR_CMP(DIF_OP_CMP, n, m));
	b_.branch(DIF_OP_BLEU, fits);
	b_.emit(DIF_INSTR_MOV(m, n));
	b_.place(fits);
	b_.emit(DIF_INSTR_COPYS(r, n, a));
	b_.emit(DIF_INSTR_FMT(DIF_OP_ADD, a, n, a));
	b_.emit(DIF_INSTR_STORE(DIF_OP_STB, 0, a));
	b_.free(m);
	b_.free(n);
	b_.free(a);
}

// bits = (bits & ~mask) | ((r << bit_off) & mask) over the bytes that hold
// the bit-field (the unit load_bitfield() reads).
void expr_gen::store_bitfield(expr &lhs, uint8_t r)
{
	const uint32_t need = lhs.s.bit_off + lhs.s.bit_size;
	const uint32_t n = need <= 8 ? 1 : need <= 16 ? 2 : need <= 32 ? 4 : 8;
	const uint64_t mask = (lhs.s.bit_size < 64 ? (uint64_t{1} << lhs.s.bit_size) - 1 : ~0ull)
			      << lhs.s.bit_off;
	uint8_t a = gen_addr(lhs);
	uint8_t cur = b_.alloc(lhs.line);
	b_.emit(DIF_INSTR_MOV(a, cur));
	cur = load(cur, syms_.types.int_type(n, false), lhs.line);
	uint8_t k = b_.alloc(lhs.line);
	b_.setx(~mask, k);
	b_.emit(DIF_INSTR_FMT(DIF_OP_AND, cur, k, cur));
	uint8_t v = b_.alloc(lhs.line);
	b_.emit(DIF_INSTR_MOV(r, v));
	if (lhs.s.bit_off) {
		b_.setx(lhs.s.bit_off, k);
		b_.emit(DIF_INSTR_FMT(DIF_OP_SLL, v, k, v));
	}
	b_.setx(mask, k);
	b_.emit(DIF_INSTR_FMT(DIF_OP_AND, v, k, v));
	b_.emit(DIF_INSTR_FMT(DIF_OP_OR, cur, v, cur));
	b_.free(v);
	b_.free(k);
	uint8_t op = n == 1 ? DIF_OP_STB : n == 2 ? DIF_OP_STH : n == 4 ? DIF_OP_STW : DIF_OP_STX;
	b_.emit(DIF_INSTR_STORE(op, cur, a));
	b_.free(cur);
	b_.free(a);
}

uint8_t expr_gen::arith(tk op, uint8_t a, uint8_t b, const type_ref &t, uint32_t line)
{
	(void)line;
	bool sign = t->is_signed;
	uint8_t o;
	switch (op) {
	case tk::plus: o = DIF_OP_ADD; break;
	case tk::minus: o = DIF_OP_SUB; break;
	case tk::star: o = DIF_OP_MUL; break;
	case tk::slash: o = sign ? DIF_OP_SDIV : DIF_OP_UDIV; break;
	case tk::percent: o = sign ? DIF_OP_SREM : DIF_OP_UREM; break;
	case tk::amp: o = DIF_OP_AND; break;
	case tk::pipe: o = DIF_OP_OR; break;
	case tk::caret: o = DIF_OP_XOR; break;
	case tk::shl: o = DIF_OP_SLL; break;
	case tk::shr: o = sign ? DIF_OP_SRA : DIF_OP_SRL; break;
	default: fail(tag::D_CG_DYN, line, "unsupported operator");
	}
	b_.emit(DIF_INSTR_FMT(o, a, b, a));
	return a;
}

uint8_t expr_gen::gen_binary(expr &e)
{
	switch (e.op) {
	case tk::lt:
	case tk::gt:
	case tk::le:
	case tk::ge:
	case tk::eqeq:
	case tk::ne: return gen_compare(e);
	case tk::land:
	case tk::lor:
	case tk::lxor: return gen_logical(e);
	default: break;
	}
	expr &l = *e.kids[0], &r = *e.kids[1];
	uint8_t a, b;
	gen_pair(l, r, a, b);
	// Pointer arithmetic scales the integer by the pointee size.
	if ((e.op == tk::plus || e.op == tk::minus) && e.s.type->is_ptr()) {
		bool lptr = l.s.type->is_ptr();
		uint8_t ir = lptr ? b : a;
		uint32_t sz = e.s.type->ref && e.s.type->ref->size ? e.s.type->ref->size : 1;
		if (sz != 1) {
			uint8_t s = b_.alloc(e.line);
			b_.setx(sz, s);
			b_.emit(DIF_INSTR_FMT(DIF_OP_MUL, ir, s, ir));
			b_.free(s);
		}
	}
	type_ref t = e.s.type->is_int() ? e.s.type : l.s.type;
	if (e.op == tk::shr || e.op == tk::shl)
		t = e.s.type;
	arith(e.op, a, b, t, e.line);
	b_.free(b);
	if (e.op == tk::minus && l.s.type->is_ptr() && r.s.type->is_ptr()) {
		uint32_t sz = l.s.type->ref && l.s.type->ref->size ? l.s.type->ref->size : 1;
		if (sz != 1) {
			uint8_t s = b_.alloc(e.line);
			b_.setx(sz, s);
			b_.emit(DIF_INSTR_FMT(DIF_OP_SDIV, a, s, a));
			b_.free(s);
		}
	}
	return a;
}

uint8_t expr_gen::gen_compare(expr &e)
{
	expr &l = *e.kids[0], &r = *e.kids[1];
	uint8_t a, b;
	gen_pair(l, r, a, b);
	bool str = l.s.type->is_string() || r.s.type->is_string();
	bool is_unsigned = false;
	if (!str) {
		if (l.s.type->is_ptr() || r.s.type->is_ptr()) {
			is_unsigned = true;
		} else {
			type_ref pa = l.s.type, pb = r.s.type;
			type_ref res = pa->size != pb->size ? (pa->size > pb->size ? pa : pb)
							    : (!pa->is_signed ? pa : pb);
			if (res->size < 4)
				res = types_.int_type(4, true);
			is_unsigned = !res->is_signed;
		}
	}
	b_.emit(DIF_INSTR_CMP(str ? DIF_OP_SCMP : DIF_OP_CMP, a, b));
	b_.free(b);
	uint8_t op;
	switch (e.op) {
	case tk::lt: op = is_unsigned ? DIF_OP_BLU : DIF_OP_BL; break;
	case tk::gt: op = is_unsigned ? DIF_OP_BGU : DIF_OP_BG; break;
	case tk::le: op = is_unsigned ? DIF_OP_BLEU : DIF_OP_BLE; break;
	case tk::ge: op = is_unsigned ? DIF_OP_BGEU : DIF_OP_BGE; break;
	case tk::eqeq: op = DIF_OP_BE; break;
	default: op = DIF_OP_BNE; break;
	}
	auto lt = b_.new_label(), ld = b_.new_label();
	b_.branch(op, lt);
	b_.emit(DIF_INSTR_MOV(0, a));
	b_.branch(DIF_OP_BA, ld);
	b_.place(lt);
	b_.setx(1, a);
	b_.place(ld);
	b_.emit(DIF_INSTR_NOP);
	return a;
}

uint8_t expr_gen::gen_logical(expr &e)
{
	auto lf = b_.new_label(), lt = b_.new_label(), ld = b_.new_label();
	uint8_t a = gen(*e.kids[0]);
	if (e.op == tk::lxor) {
		// a' = (a != 0), b' = (b != 0), result a' ^ b'
		auto l1 = b_.new_label();
		b_.emit(DIF_INSTR_TST(a));
		b_.branch(DIF_OP_BE, l1);
		b_.setx(1, a);
		b_.place(l1);
		uint8_t b = gen(*e.kids[1]);
		auto l2 = b_.new_label();
		b_.emit(DIF_INSTR_TST(b));
		b_.branch(DIF_OP_BE, l2);
		b_.setx(1, b);
		b_.place(l2);
		b_.emit(DIF_INSTR_FMT(DIF_OP_XOR, a, b, a));
		b_.free(b);
		(void)lf;
		(void)lt;
		(void)ld;
		return a;
	}
	b_.emit(DIF_INSTR_TST(a));
	if (e.op == tk::land)
		b_.branch(DIF_OP_BE, lf);
	else
		b_.branch(DIF_OP_BNE, lt);
	b_.free(a);
	uint8_t b = gen(*e.kids[1]);
	b_.emit(DIF_INSTR_TST(b));
	b_.branch(DIF_OP_BE, lf);
	b_.place(lt);
	b_.setx(1, b);
	b_.branch(DIF_OP_BA, ld);
	b_.place(lf);
	b_.emit(DIF_INSTR_MOV(0, b));
	b_.place(ld);
	b_.emit(DIF_INSTR_NOP);
	return b;
}

uint8_t expr_gen::gen_ternary(expr &e)
{
	auto le = b_.new_label(), ld = b_.new_label();
	uint8_t c = gen(*e.kids[0]);
	b_.emit(DIF_INSTR_TST(c));
	b_.free(c);
	b_.branch(DIF_OP_BE, le);
	// The first arm's register holds the result; on the second arm's
	// path it holds nothing yet, so that arm may use it too.
	uint8_t rd = gen(*e.kids[1]);
	narrow(rd, e.s.type, e.kids[1]->s.type, e.line);
	b_.branch(DIF_OP_BA, ld);
	b_.place(le);
	b_.free(rd);
	uint8_t b = gen(*e.kids[2]);
	narrow(b, e.s.type, e.kids[2]->s.type, e.line);
	if (b != rd) {
		b_.emit(DIF_INSTR_MOV(b, rd));
		b_.free(b);
	}
	b_.take(rd);
	b_.place(ld);
	b_.emit(DIF_INSTR_NOP);
	return rd;
}

uint8_t expr_gen::gen_assign(expr &e)
{
	expr &lhs = *e.kids[0];
	expr &rhs = *e.kids[1];
	uint8_t r = gen(rhs);
	if (e.op == tk::assign && lhs.s.type && lhs.s.type->is_int())
		truncate(r, lhs.s.type, e.line); // what the variable can hold
	if (e.op != tk::assign) {
		uint8_t cur = b_.alloc(e.line);
		load_var(lhs, cur);
		tk base;
		switch (e.op) {
		case tk::add_eq: base = tk::plus; break;
		case tk::sub_eq: base = tk::minus; break;
		case tk::mul_eq: base = tk::star; break;
		case tk::div_eq: base = tk::slash; break;
		case tk::mod_eq: base = tk::percent; break;
		case tk::and_eq_: base = tk::amp; break;
		case tk::or_eq_: base = tk::pipe; break;
		case tk::xor_eq_: base = tk::caret; break;
		case tk::shl_eq: base = tk::shl; break;
		default: base = tk::shr; break;
		}
		if (lhs.s.type->is_ptr() && (base == tk::plus || base == tk::minus)) {
			uint32_t sz = lhs.s.type->ref && lhs.s.type->ref->size
					      ? lhs.s.type->ref->size
					      : 1;
			if (sz != 1) {
				uint8_t s = b_.alloc(e.line);
				b_.setx(sz, s);
				b_.emit(DIF_INSTR_FMT(DIF_OP_MUL, r, s, r));
				b_.free(s);
			}
		}
		type_ref t =
			lhs.s.type->is_int() && rhs.s.type->is_int()
				? (lhs.s.type->size >= rhs.s.type->size ? lhs.s.type : rhs.s.type)
				: lhs.s.type;
		arith(base, cur, r, t, e.line);
		b_.emit(DIF_INSTR_MOV(cur, r));
		b_.free(cur);
	}
	narrow(r, lhs.s.type, rhs.s.type, e.line);
	store_var(lhs, r);
	return r;
}

uint8_t expr_gen::gen_incdec(expr &e)
{
	expr &x = *e.kids[0];
	uint8_t r = b_.alloc(e.line);
	load_var(x, r);
	uint8_t one = b_.alloc(e.line);
	uint32_t step = x.s.type->is_ptr() && x.s.type->ref && x.s.type->ref->size
				? x.s.type->ref->size
				: 1;
	b_.setx(step, one);
	uint8_t nv = r;
	if (e.postfix) {
		nv = b_.alloc(e.line);
		b_.emit(DIF_INSTR_FMT(e.op == tk::inc ? DIF_OP_ADD : DIF_OP_SUB, r, one, nv));
	} else {
		b_.emit(DIF_INSTR_FMT(e.op == tk::inc ? DIF_OP_ADD : DIF_OP_SUB, r, one, r));
	}
	b_.free(one);
	narrow(nv, x.s.type, types_.named("long"), e.line);
	store_var(x, nv);
	if (nv != r)
		b_.free(nv);
	return r;
}

uint8_t expr_gen::gen_call(expr &e)
{
	// Arguments are all evaluated before the first is pushed (a nested
	// call uses the tuple stack), the costliest first.
	std::vector<size_t> order(e.kids.size());
	for (size_t i = 0; i < order.size(); i++)
		order[i] = i;
	std::stable_sort(order.begin(), order.end(),
			 [&e](size_t x, size_t y) { return need(*e.kids[x]) > need(*e.kids[y]); });
	std::vector<expr *> args;
	for (auto &k : e.kids)
		args.push_back(k.get());
	gen_args(args, order, e.line, [&](size_t i, uint8_t r) {
		if (e.kids[i]->s.type->is_string())
			b_.emit(DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 0, r));
		else
			b_.emit(DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, r));
	});
	uint8_t rd = b_.alloc(e.line);
	b_.emit(DIF_INSTR_CALL(e.s.id, rd));
	return rd;
}

// xlate<struct T>(x) as a whole value (a structure assignment): as
// illumos dt_cg_asgn_op(), a zeroed scratch object (alloca) in which each
// member the translator defines is computed and stored; the value is its
// address, as for any struct. xlate<struct T *>(x) as a value (a pointer
// stored in a variable: `c = curcpu;`) is the same object's address, as
// illumos dt_cg_xlate_expand() makes it: scratch memory, valid until the
// clause ends.
uint8_t expr_gen::gen_xlate(expr &e)
{
	const translator_info &x = syms_.xlators[e.s.id];
	const type_ref &out = e.s.type->is_ptr() && e.s.type->ref ? e.s.type->ref : e.s.type;
	if (out->is_ptr())
		fail(tag::D_CG_DYN, e.line, "pointer to translated data cannot be used as a value");
	uint8_t obj = b_.alloc(e.line);
	b_.setx(out->size, obj);
	b_.emit(DIF_INSTR_FLUSHTS);
	b_.emit(DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, obj));
	b_.emit(DIF_INSTR_CALL(DIF_SUBR_ALLOCA, obj));
	size_t n = xl_bind_.size();
	xl_bind_.emplace_back(x.in_name, e.kids[0].get());
	for (const auto &[name, mexpr] : x.members) {
		const member *m = out->find_member(name);
		if (!m || m->bit_size)
			fail(tag::D_CG_DYN, e.line,
			     "translator member " + name + " cannot be stored in a structure");
		expr *me = const_cast<expr *>(mexpr);
		uint8_t v = gen_keeping(*me, {&obj});
		uint8_t a = b_.alloc(e.line);
		b_.setx(m->offset, a);
		b_.emit(DIF_INSTR_FMT(DIF_OP_ADD, obj, a, a));
		const type_ref &mt = m->type;
		if (mt->is_sou() || mt->is_array() || me->s.type->is_string()) {
			uint8_t sz = b_.alloc(e.line);
			b_.setx(mt->size, sz);
			b_.emit(DIF_INSTR_COPYS(v, sz, a));
			b_.free(sz);
		} else {
			uint8_t op = mt->size == 1   ? DIF_OP_STB
				     : mt->size == 2 ? DIF_OP_STH
				     : mt->size == 4 ? DIF_OP_STW
						     : DIF_OP_STX;
			b_.emit(DIF_INSTR_STORE(op, v, a));
		}
		b_.free(a);
		b_.free(v);
	}
	xl_bind_.resize(n);
	return obj;
}

uint8_t expr_gen::gen(expr &e)
{
	if (e.s.is_const && e.s.type && e.s.type->is_int()) {
		uint8_t r = b_.alloc(e.line);
		b_.setx(static_cast<uint64_t>(e.s.value), r);
		return r;
	}
	switch (e.kind) {
	case ek::int_lit: {
		uint8_t r = b_.alloc(e.line);
		b_.setx(e.value, r);
		return r;
	}
	case ek::str_lit: {
		uint8_t r = b_.alloc(e.line);
		b_.emit(DIF_INSTR_SETS(b_.intern_str(e.name), r));
		return r;
	}
	case ek::ident:
		if (e.s.what == expr_sema::ref::xlate_arg) {
			for (auto it = xl_bind_.rbegin(); it != xl_bind_.rend(); ++it) {
				if (it->first == e.name) {
					auto saved = xl_bind_;
					expr *input = it->second;
					// The input is evaluated outside the translator's scope.
					xl_bind_.erase(it.base() - 1, xl_bind_.end());
					uint8_t r = gen(*input);
					xl_bind_ = saved;
					return r;
				}
			}
			fail(tag::D_CG_DYN, e.line, "translator input used outside a translation");
		}
		if (e.s.what == expr_sema::ref::ksym)
			return load(gen_addr(e), e.s.type, e.line);
		if (e.s.what == expr_sema::ref::builtin) {
			if (e.s.id == DIF_VAR_CURTHREAD)
				syms_.reads_kernel = true;
			uint8_t r = b_.alloc(e.line);
			b_.emit(DIF_INSTR_LDV(DIF_OP_LDGS, e.s.id, r));
			return r;
		}
		if (e.s.what == expr_sema::ref::inline_) {
			uint8_t r = gen(*const_cast<expr *>(e.s.inl));
			narrow(r, e.s.type, e.s.inl->s.type, e.line);
			return r;
		}
		return load_var(e, b_.alloc(e.line));
	case ek::tls_var:
	case ek::local_var: return load_var(e, b_.alloc(e.line));
	case ek::index:
		if (e.s.what == expr_sema::ref::args) {
			uint8_t ix = b_.alloc(e.line);
			b_.setx(e.s.id, ix);
			b_.emit(DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_ARGS, ix, ix));
			narrow(ix, e.s.type, types_.named("long"), e.line);
			return ix;
		}
		if (e.s.what == expr_sema::ref::uregs) {
			syms_.reads_kernel = true; // the saved registers are in the kernel
			uint8_t ix = b_.alloc(e.line);
			b_.setx(e.s.id, ix);
			b_.emit(DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_UREGS, ix, ix));
			return ix;
		}
		if (e.s.what == expr_sema::ref::inline_) {
			// uregs[] past pt_regs, or an inline with parameters.
			size_t n = xl_bind_.size();
			bind_params(e);
			uint8_t r = gen(*const_cast<expr *>(e.s.inl));
			xl_bind_.resize(n);
			return r;
		}
		if (e.s.what == expr_sema::ref::garray || e.s.what == expr_sema::ref::tarray)
			return load_var(e, b_.alloc(e.line));
		if (e.kids[0]->s.type->is_string()) {
			uint8_t base = gen(*e.kids[0]);
			uint8_t ix = gen(*e.kids[1]);
			b_.emit(DIF_INSTR_FMT(DIF_OP_ADD, base, ix, base));
			b_.free(ix);
			return load(base, e.s.type, e.line);
		}
		return load(gen_addr(e), e.s.type, e.line);
	case ek::member:
	case ek::arrow:
		if (e.s.what == expr_sema::ref::xlate_member) {
			// The base may be an inline standing for xlate<>() (curpsinfo).
			// Or an inline with parameters standing for it (fds[fd]).
			expr *bp = e.kids[0].get();
			size_t n = xl_bind_.size();
			while ((bp->kind == ek::ident || bp->kind == ek::index) &&
			       bp->s.what == expr_sema::ref::inline_ && bp->s.inl) {
				if (bp->kind == ek::index)
					bind_params(*bp);
				bp = const_cast<expr *>(bp->s.inl);
			}
			expr *input = bp->kind == ek::xlate ? bp->kids[0].get() : bp;
			xl_bind_.emplace_back(syms_.xlators[e.s.id].in_name, input);
			expr *m = const_cast<expr *>(e.s.inl);
			uint8_t r = gen(*m);
			xl_bind_.resize(n);
			narrow(r, e.s.type, m->s.type, e.line);
			return r;
		}
		if (e.s.bit_size)
			return load_bitfield(e);
		return load(gen_addr(e), e.s.type, e.line);
	case ek::unary: {
		if (e.op == tk::star)
			return load(gen(*e.kids[0]), e.s.type, e.line);
		if (e.op == tk::amp)
			return gen_addr(*e.kids[0]);
		uint8_t r = gen(*e.kids[0]);
		switch (e.op) {
		case tk::minus: b_.emit(DIF_INSTR_FMT(DIF_OP_SUB, 0, r, r)); break;
		case tk::tilde: b_.emit(DIF_INSTR_NOT(r, r)); break;
		case tk::bang: {
			auto lt = b_.new_label(), ld = b_.new_label();
			b_.emit(DIF_INSTR_TST(r));
			b_.branch(DIF_OP_BE, lt);
			b_.emit(DIF_INSTR_MOV(0, r));
			b_.branch(DIF_OP_BA, ld);
			b_.place(lt);
			b_.setx(1, r);
			b_.place(ld);
			b_.emit(DIF_INSTR_NOP);
			break;
		}
		default: break;
		}
		return r;
	}
	case ek::incdec: return gen_incdec(e);
	case ek::binary: return gen_binary(e);
	case ek::assign: return gen_assign(e);
	case ek::ternary: return gen_ternary(e);
	case ek::call: return gen_call(e);
	case ek::cast: {
		uint8_t r = gen(*e.kids[0]);
		normalize(r, *e.kids[0]);
		narrow(r, e.s.type, e.kids[0]->s.type, e.line);
		return r;
	}
	case ek::stringof: return gen(*e.kids[0]);
	case ek::xlate: return gen_xlate(e);
	case ek::comma: {
		uint8_t a = gen(*e.kids[0]);
		b_.free(a);
		return gen(*e.kids[1]);
	}
	default: fail(tag::D_CG_DYN, e.line, "expression cannot be compiled");
	}
}

uint32_t align_of(const value_type &v, const type_ref &t)
{
	switch (v.k) {
	case value_type::kind::integer: return v.size;
	case value_type::kind::pointer: return 8;
	case value_type::kind::string: return 1;
	case value_type::kind::bytes: return 1;
	default: (void)t; return 8;
	}
}

difo stack_difo(symbols &syms, const type_ref &t)
{
	dif_builder b;
	b.emit(DIF_INSTR_RET(0));
	return b.finish(syms.types.diftype(t));
}

// print() of a struct or union: its members, for the consumer's typed
// layout (value_type::members). False when a member has a type whose
// layout the consumer does not show (floats, enums, non-char arrays,
// bitfields): the value then prints as trace() prints it.
bool sou_members(const type_table &types, const ctype &t, std::vector<value_member> &out,
		 int depth = 0)
{
	if (depth > 8)
		return false;
	for (const member &m : t.all_members()) {
		if (!m.type || m.bit_size)
			return false;
		const ctype &mt = *m.type;
		value_member vm;
		vm.name = m.name;
		vm.offset = m.offset;
		vm.type = types.value_of(m.type);
		vm.type.name = mt.name;
		if (mt.k == ctype::kind::sou) {
			if (!sou_members(types, mt, vm.type.members, depth + 1) ||
			    vm.type.members.empty())
				return false;
		} else if (mt.k == ctype::kind::array) {
			if (!mt.ref || mt.ref->k != ctype::kind::integer || mt.ref->size != 1)
				return false;
			vm.type.k = value_type::kind::string;
			vm.type.size = mt.size;
		} else if (mt.k != ctype::kind::integer && mt.k != ctype::kind::pointer) {
			return false;
		} else if (mt.size != 1 && mt.size != 2 && mt.size != 4 && mt.size != 8) {
			return false;
		}
		out.push_back(std::move(vm));
	}
	return true;
}

record make_record(symbols &syms, const checked_clause *cc, const arg_plan &a)
{
	record r;
	r.type = a.vt;
	if (a.type && a.type->k == ctype::kind::sou && a.vt.k == value_type::kind::bytes &&
	    !sou_members(syms.types, *a.type, r.type.members))
		r.type.members.clear();
	r.size = a.size ? a.size : a.vt.size;
	r.alignment = align_of(a.vt, a.type);
	if (a.e)
		r.expr = compile_expr(syms, cc, *a.e, a.type, a.as_string);
	else
		r.expr = stack_difo(syms, a.type);
	if (a.vt.k == value_type::kind::bytes && a.e) {
		r.expr.rtype.dtdt_flags |= DIF_TF_BYREF;
		r.expr.rtype.dtdt_size = r.size;
	}
	return r;
}

// illumos dt_as(): under -x linkmode=dynamic every kernel symbol, under
// primary a loadable module's (not the kernel's own), is left to be
// relocated when the program is loaded instead of having its value now
// (kernel, the default, and static take every value now). Unless -x
// knodefs permits unresolved kernel symbols, the first such symbol is an
// error (dt_as_undef()), at the 1-based index of the instruction that
// would be patched. Permitted, the value is kept: nothing relocates it
// later, as nothing in illumos' kernel applies kernel relocations.
void check_links(const symbols &syms, const std::vector<dif_builder::reloc> &relocs)
{
	if (syms.knodefs)
		return;
	for (const auto &r : relocs) {
		bool primary = r.object == "vmlinux";
		if (syms.linkmode != "dynamic" && (syms.linkmode != "primary" || primary))
			continue;
		char off[24];
		std::snprintf(off, sizeof(off), "0x%zx", r.at + 1);
		fail(tag::D_ASRELO, r.line,
		     std::string("relocation remains against ") +
			     (primary ? "primary kernel" : "loadable kernel") + " symbol " +
			     r.object + "`" + r.name + " (offset " + off + ")");
	}
}

} // namespace

difo compile_expr(symbols &syms, const checked_clause *cc, expr &e, const type_ref &as_type,
		  bool as_string)
{
	expr_gen g(syms, cc);
	uint8_t r = g.gen(e);
	type_ref t = as_type ? as_type : e.s.type;
	if (!as_string) {
		g.normalize(r, e);
		g.narrow(r, t, e.s.type, e.line);
	}
	g.b().emit(DIF_INSTR_RET(r));
	type_ref rt = as_string ? syms.types.string_type() : t;
	check_links(syms, g.b().relocs());
	return g.b().finish(syms.types.diftype(rt));
}

void generate(symbols &syms, std::vector<checked_clause> &clauses, program &out)
{
	for (const auto &cc : clauses)
		syms.first_spill = std::max(syms.first_spill, next_local_id(cc.locals));
	for (auto &cc : clauses) {
		clause c;
		c.descs = cc.descs;
		c.desc_text = cc.desc_text;
		c.line = cc.line;
		c.speculative = cc.speculative;
		c.desc_attr = k_attr_max;
		for (dt_attribute_t a : cc.desc_attrs)
			c.desc_attr = attr_min(c.desc_attr, a);
		c.stmt_attr = cc.stmt_attr;
		c.desc_infos = cc.desc_infos;
		if (cc.ast->predicate) {
			try {
				c.predicate =
					compile_expr(syms, &cc, *cc.ast->predicate, nullptr, false);
			} catch (d_error &e) {
				if (e.region.empty())
					e.region = "predicate";
				throw;
			}
		}
		uint32_t off = sizeof(dtrace_rechdr_t);
		try {
			for (auto &p : cc.stmts) {
				action a;
				a.kind = p.kind;
				a.libact = p.libact;
				a.records = p.records;
				a.format = p.format;
				a.aggs = p.aggs;
				a.aggid = p.aggid;
				a.nframes = p.nframes;
				a.strsize = p.strsize;
				a.line = p.line;
				if (!p.records) {
					record r;
					r.expr = compile_expr(syms, &cc, *p.effect, nullptr, false);
					r.type = syms.types.value_of(p.effect->s.type);
					r.size = 0;
					a.args.push_back(std::move(r));
				} else if (DTRACEACT_ISAGG(p.kind)) {
					uint32_t koff = 0;
					for (const auto &k : p.keys) {
						record r = make_record(syms, &cc, k);
						koff = (koff + 7) & ~7u;
						r.offset = koff;
						r.alignment = 8;
						koff += r.size;
						a.keys.push_back(std::move(r));
					}
					for (const auto &v : p.args)
						a.args.push_back(make_record(syms, &cc, v));
				} else {
					for (const auto &v : p.args) {
						record r = make_record(syms, &cc, v);
						uint32_t al = r.alignment ? r.alignment : 1;
						off = (off + al - 1) / al * al;
						r.offset = off;
						off += r.size;
						a.args.push_back(std::move(r));
					}
				}
				if (!p.format.empty() || p.kind == DTRACEACT_PRINTF)
					out.formats.push_back(p.format);
				c.actions.push_back(std::move(a));
			}
		} catch (d_error &e) {
			if (e.region.empty())
				e.region = "action list";
			throw;
		}
		c.size = (off + 7) & ~7u;
		out.clauses.push_back(std::move(c));
	}
	for (const auto &name : syms.agg_order) {
		const agg_info &ai = syms.aggs.at(name);
		aggregation ag;
		ag.id = ai.id;
		ag.name = ai.name;
		ag.func = ai.func;
		uint32_t koff = 0;
		for (const auto &k : ai.keys) {
			value_type vt = syms.types.value_of(k);
			koff = (koff + 7) & ~7u;
			ag.key_offsets.push_back(koff);
			koff += vt.size;
			ag.keys.push_back(vt);
		}
		ag.key_size = (koff + 7) & ~7u;
		ag.params = ai.params;
		ag.nwords = ai.nwords;
		out.aggregations.push_back(ag);
	}
	auto add_vars = [&](const std::map<std::string, var_info> &t) {
		for (const auto &[n, v] : t) {
			bool dup = false;
			for (const auto &pv : out.variables)
				dup = dup || (pv.name == n && pv.scope == v.scope);
			if (dup)
				continue;
			variable pv;
			pv.name = n;
			pv.id = v.id;
			pv.kind = v.is_array ? DIFV_KIND_ARRAY : DIFV_KIND_SCALAR;
			pv.scope = v.scope;
			if (v.type)
				pv.type = syms.types.diftype(v.type);
			for (const auto &k : v.keys)
				pv.key_types.push_back(syms.types.value_of(k));
			out.variables.push_back(pv);
		}
	};
	out.reads_kernel = syms.reads_kernel;
	add_vars(syms.globals);
	add_vars(syms.tls);
	for (const auto &cc : clauses)
		add_vars(cc.locals);
	// The spill slots codegen added (gen_keeping): clause-local scalars
	// of the DIF objects' own tables, each id once.
	auto add_spills = [&](const difo &d) {
		for (const dtrace_difv_t &v : d.vartab) {
			if (v.dtdv_scope != DIFV_SCOPE_LOCAL || v.dtdv_kind != DIFV_KIND_SCALAR ||
			    d.strtab.compare(v.dtdv_name, 6, "%spill") != 0)
				continue;
			bool dup = false;
			for (const auto &pv : out.variables)
				dup = dup || (pv.id == v.dtdv_id && pv.scope == DIFV_SCOPE_LOCAL);
			if (dup)
				continue;
			variable pv;
			pv.name = d.strtab.c_str() + v.dtdv_name;
			pv.id = v.dtdv_id;
			pv.scope = DIFV_SCOPE_LOCAL;
			pv.type = v.dtdv_type;
			out.variables.push_back(pv);
		}
	};
	for (const clause &c : out.clauses) {
		if (c.predicate)
			add_spills(*c.predicate);
		for (const action &a : c.actions) {
			for (const record &r : a.args)
				add_spills(r.expr);
			for (const record &r : a.keys)
				add_spills(r.expr);
		}
	}
}

} // namespace dt::compiler
