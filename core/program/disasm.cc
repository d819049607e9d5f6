// SPDX-License-Identifier: MIT
//
// disasm.cc - `dtrace -S`: DIF objects in DTrace's layout, byte for byte as
// illumos dt_dis() prints them (libdtrace/common/dt_dis.c, 2017 version:
// variable ids in hex).
//
//   \nDIFO 0x<addr> returns <type>
//   OFF OPCODE      INSTRUCTION
//   00: 25000001    setx DT_INTEGER[0], %r1		! 0x2a
//   ...
//   \nNAME             ID   KND SCP FLAG TYPE        (only if vartab not empty)
//   x                500  scl glb r    D type (integer) (size 8)
//
// disassemble(program) prints, clause by clause and once per probe
// description of the clause (dt_compile_clause compiles it once for each),
// the predicate's DIFO and then each action's DIFOs (aggregation keys
// before the value, as dt_compile_agg assembles them): what dtrace -S
// writes, since illumos calls dt_dis() on each DIFO dt_as() assembles and
// prints nothing else (no clause headers). Constant DIFOs illumos builds by
// hand (dt_action_difconst: the aggregation id, printa's) are not printed
// there and do not exist here.
#include "disasm.hpp"

#include <dtrace/compiler.hpp>

#include "dif_isa.h" // dif_ops.def, dif_subrs.def: names and operand forms

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <string>

namespace dt::compiler {

namespace {

// Append printf-formatted text (the formats are illumos' own).
[[gnu::format(printf, 2, 3)]] void put(std::string &out, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = std::vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (static_cast<size_t>(n) < sizeof(buf)) {
		out.append(buf, static_cast<size_t>(n));
		return;
	}
	std::string big(static_cast<size_t>(n) + 1, '\0');
	va_start(ap, fmt);
	std::vsnprintf(big.data(), big.size(), fmt, ap);
	va_end(ap);
	big.resize(static_cast<size_t>(n));
	out += big;
}

// A string-table entry, or nullptr if off the end (illumos checks sets and
// variable names against dtdo_strlen).
const char *str_at(const difo &dp, uint32_t off)
{
	if (off >= dp.strtab.size())
		return nullptr;
	return dp.strtab.c_str() + off;
}

const char *var_name(const difo &dp, uint32_t id, unsigned scope)
{
	for (const auto &v : dp.vartab)
		if (v.dtdv_id == id && v.dtdv_scope == scope)
			return str_at(dp, v.dtdv_name);
	return nullptr;
}

void var_comment(std::string &out, const difo &dp, int scope, uint32_t var)
{
	if (const char *vn = var_name(dp, var, static_cast<unsigned>(scope)))
		put(out, "\t\t! DT_VAR(%u) = \"%s\"", var, vn);
}

// illumos' stga (DT_VAR(var), r2, rd), not part of our ISA (dif_ops.def)
// nor of illumos' DIF_OP_MAX, but dt_dis.c names it: so do we.
constexpr uint32_t k_illumos_stga = 80;

// Names and operand forms come from dif_ops.def (dif_isa.h); the layouts
// are illumos dt_dis.c's.
void instruction(std::string &out, const difo &dp, dif_instr_t in)
{
	const uint32_t op = DIF_INSTR_OP(in);
	const unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in), rd = DIF_INSTR_RD(in);

	if (op == k_illumos_stga) {
		put(out, "%-4s DT_VAR(%u), %%r%u, %%r%u", "stga", DIF_INSTR_VAR(in), r2, rd);
		var_comment(out, dp, DIFV_SCOPE_GLOBAL, DIF_INSTR_VAR(in));
		return;
	}
	const char *n = dif_op_name(op);
	switch (dif_op_form(op)) {
	case DIF_FORM_ILLEGAL: put(out, "%s", "(illegal opcode)"); break;
	case DIF_FORM_NONE: put(out, "%s", n); break;
	case DIF_FORM_R1_R2_RD: put(out, "%-4s %%r%u, %%r%u, %%r%u", n, r1, r2, rd); break;
	case DIF_FORM_BRANCH: put(out, "%-4s %u", n, DIF_INSTR_LABEL(in)); break;
	case DIF_FORM_LOAD: put(out, "%-4s [%%r%u], %%r%u", n, r1, rd); break;
	case DIF_FORM_STORE: put(out, "%-4s %%r%u, [%%r%u]", n, r1, rd); break;
	case DIF_FORM_R1_RD: put(out, "%-4s %%r%u, %%r%u", n, r1, rd); break;
	case DIF_FORM_R1_R2: put(out, "%-4s %%r%u, %%r%u", n, r1, r2); break;
	case DIF_FORM_R1: put(out, "%-4s %%r%u", n, r1); break;
	case DIF_FORM_AVAR_R2_RD:
		put(out, "%-4s DT_VAR(%u), %%r%u, %%r%u", n, r1, r2, rd);
		var_comment(out, dp, dif_op_scope(op), r1);
		break;
	case DIF_FORM_VAR_RD:
		put(out, "%-4s DT_VAR(%u), %%r%u", n, DIF_INSTR_VAR(in), rd);
		var_comment(out, dp, dif_op_scope(op), DIF_INSTR_VAR(in));
		break;
	case DIF_FORM_RS_VAR:
		put(out, "%-4s %%r%u, DT_VAR(%u)", n, DIF_INSTR_RS(in), DIF_INSTR_VAR(in));
		var_comment(out, dp, dif_op_scope(op), DIF_INSTR_VAR(in));
		break;
	case DIF_FORM_INT_RD: {
		const uint32_t i = DIF_INSTR_INTEGER(in);
		put(out, "%-4s DT_INTEGER[%u], %%r%u", n, i, rd);
		if (i < dp.inttab.size())
			put(out, "\t\t! 0x%" PRIx64, dp.inttab[i]);
		break;
	}
	case DIF_FORM_STR_RD: {
		const uint32_t s = DIF_INSTR_STRING(in);
		put(out, "%-4s DT_STRING[%u], %%r%u", n, s, rd);
		if (const char *str = str_at(dp, s))
			put(out, "\t\t! \"%s\"", str);
		break;
	}
	case DIF_FORM_RS: put(out, "%-4s %%r%u", n, rd); break;
	case DIF_FORM_SUBR_RD:
		put(out, "%-4s DIF_SUBR(%u), %%r%u\t\t! %s", n, DIF_INSTR_SUBR(in), rd,
		    subr_name(DIF_INSTR_SUBR(in)));
		break;
	case DIF_FORM_TYPE_R2_RS:
	case DIF_FORM_TYPE_RS: {
		static const char *const tnames[] = {"D type", "string"};
		const unsigned type = DIF_INSTR_TYPE(in);
		const char *pad;
		if (dif_op_form(op) == DIF_FORM_TYPE_RS) {
			put(out, "%-4s DT_TYPE(%u), %%r%u", n, type, DIF_INSTR_RS(in));
			pad = "\t\t";
		} else {
			put(out, "%-4s DT_TYPE(%u), %%r%u, %%r%u", n, type, r2, DIF_INSTR_RS(in));
			pad = "\t";
		}
		if (type < 2)
			put(out, "%s! DT_TYPE(%u) = %s", pad, type, tnames[type]);
		break;
	}
	case DIF_FORM_XLREF_RD:
		// Translator references are resolved before a program exists: no
		// member table to name, so no comment (illumos: only if in range).
		put(out, "%-4s DT_XLREF[%u], %%r%u", n, DIF_INSTR_XLREF(in), rd);
		break;
	}
}

// illumos dt_dis_typestr().
std::string type_str(const dtrace_diftype_t &t)
{
	static const char *const ckinds[] = {"unknown",	 "integer",  "float", "pointer", "array",
					     "function", "struct",   "union", "enum",	 "forward",
					     "typedef",	 "volatile", "const", "restrict"};
	std::string kind, ckind, out;
	if (t.dtdt_kind == DIF_TYPE_CTF)
		kind = "D type";
	else if (t.dtdt_kind == DIF_TYPE_STRING)
		kind = "string";
	else
		put(kind, "0x%x", t.dtdt_kind);
	if (t.dtdt_ckind < sizeof(ckinds) / sizeof(ckinds[0]))
		ckind = ckinds[t.dtdt_ckind];
	else
		put(ckind, "0x%x", t.dtdt_ckind);
	if (t.dtdt_flags & (DIF_TF_BYREF | DIF_TF_BYUREF))
		put(out, "%s (%s) by %sref (size %lu)", kind.c_str(), ckind.c_str(),
		    (t.dtdt_flags & DIF_TF_BYUREF) ? "user " : "",
		    static_cast<unsigned long>(t.dtdt_size));
	else
		put(out, "%s (%s) (size %lu)", kind.c_str(), ckind.c_str(),
		    static_cast<unsigned long>(t.dtdt_size));
	return out;
}

void variable_table(std::string &out, const difo &dp)
{
	if (dp.vartab.empty())
		return;
	put(out, "\n%-16s %-4s %-3s %-3s %-4s %s\n", "NAME", "ID", "KND", "SCP", "FLAG", "TYPE");
	for (const auto &v : dp.vartab) {
		std::string kind, scope, flags;
		if (v.dtdv_kind == DIFV_KIND_ARRAY)
			kind = "arr";
		else if (v.dtdv_kind == DIFV_KIND_SCALAR)
			kind = "scl";
		else
			put(kind, "%u", v.dtdv_kind);
		if (v.dtdv_scope == DIFV_SCOPE_GLOBAL)
			scope = "glb";
		else if (v.dtdv_scope == DIFV_SCOPE_THREAD)
			scope = "tls";
		else if (v.dtdv_scope == DIFV_SCOPE_LOCAL)
			scope = "loc";
		else
			put(scope, "%u", v.dtdv_scope);
		if (v.dtdv_flags & ~(DIFV_F_REF | DIFV_F_MOD))
			put(flags, "/0x%x", v.dtdv_flags & ~(DIFV_F_REF | DIFV_F_MOD));
		if (v.dtdv_flags & DIFV_F_REF)
			flags += "/r";
		if (v.dtdv_flags & DIFV_F_MOD)
			flags += "/w";
		const char *name = str_at(dp, v.dtdv_name);
		put(out, "%-16s %-4x %-3s %-3s %-4s %s\n", name ? name : "", v.dtdv_id,
		    kind.c_str(), scope.c_str(), flags.empty() ? "" : flags.c_str() + 1,
		    type_str(v.dtdv_type).c_str());
	}
}

} // namespace

const char *subr_name(uint32_t subr)
{
	const char *n = dif_subr_name(subr);
	return n ? n : "unknown";
}

std::string disassemble(const difo &dp, const void *addr)
{
	std::string out;
	// Solaris' %p has no 0x prefix; dt_dis() writes "0x%p".
	put(out, "\nDIFO 0x%" PRIxPTR " returns %s\n",
	    reinterpret_cast<uintptr_t>(addr ? addr : &dp), type_str(dp.rtype).c_str());
	put(out, "%-3s %-8s    %s\n", "OFF", "OPCODE", "INSTRUCTION");
	for (size_t i = 0; i < dp.text.size(); i++) {
		put(out, "%02lu: %08x    ", static_cast<unsigned long>(i), dp.text[i]);
		instruction(out, dp, dp.text[i]);
		out += '\n';
	}
	variable_table(out, dp);
	return out;
}

std::string disassemble(const program &p)
{
	std::string out;
	for (const auto &c : p.clauses) {
		// dt_compile_clause() compiles a clause once per probe description.
		const size_t times = c.descs.empty() ? 1 : c.descs.size();
		for (size_t t = 0; t < times; t++) {
			if (c.predicate)
				out += disassemble(*c.predicate);
			for (const auto &a : c.actions) {
				for (const auto &k : a.keys)
					out += disassemble(k.expr);
				for (const auto &r : a.args)
					if (!r.expr.text.empty())
						out += disassemble(r.expr);
			}
		}
	}
	return out;
}

} // namespace dt::compiler
