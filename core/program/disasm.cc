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

// The scope an instruction name implies: ld[g|t|l]..., st[g|t|l]...
unsigned scope_of(const char *name)
{
	switch (name[2]) {
	case 'l': return DIFV_SCOPE_LOCAL;
	case 't': return DIFV_SCOPE_THREAD;
	case 'g': return DIFV_SCOPE_GLOBAL;
	default: return ~0u;
	}
}

void var_comment(std::string &out, const difo &dp, const char *name, uint32_t var)
{
	if (const char *vn = var_name(dp, var, scope_of(name)))
		put(out, "\t\t! DT_VAR(%u) = \"%s\"", var, vn);
}

enum class fmt : uint8_t {
	str,
	log,
	branch,
	load,
	store,
	r1rd,
	cmp,
	tst,
	lda,
	ldv,
	stv,
	sta,
	setx,
	sets,
	ret,
	call,
	pushts,
	xlate
};

struct opent {
	const char *name;
	fmt f;
};

// Indexed by opcode; 80 is illumos' stga (not part of our ISA).
constexpr opent k_optab[] = {
	{"(illegal opcode)", fmt::str},
	{"or", fmt::log},
	{"xor", fmt::log},
	{"and", fmt::log},
	{"sll", fmt::log},
	{"srl", fmt::log},
	{"sub", fmt::log},
	{"add", fmt::log},
	{"mul", fmt::log},
	{"sdiv", fmt::log},
	{"udiv", fmt::log},
	{"srem", fmt::log},
	{"urem", fmt::log},
	{"not", fmt::r1rd},
	{"mov", fmt::r1rd},
	{"cmp", fmt::cmp},
	{"tst", fmt::tst},
	{"ba", fmt::branch},
	{"be", fmt::branch},
	{"bne", fmt::branch},
	{"bg", fmt::branch},
	{"bgu", fmt::branch},
	{"bge", fmt::branch},
	{"bgeu", fmt::branch},
	{"bl", fmt::branch},
	{"blu", fmt::branch},
	{"ble", fmt::branch},
	{"bleu", fmt::branch},
	{"ldsb", fmt::load},
	{"ldsh", fmt::load},
	{"ldsw", fmt::load},
	{"ldub", fmt::load},
	{"lduh", fmt::load},
	{"lduw", fmt::load},
	{"ldx", fmt::load},
	{"ret", fmt::ret},
	{"nop", fmt::str},
	{"setx", fmt::setx},
	{"sets", fmt::sets},
	{"scmp", fmt::cmp},
	{"ldga", fmt::lda},
	{"ldgs", fmt::ldv},
	{"stgs", fmt::stv},
	{"ldta", fmt::lda},
	{"ldts", fmt::ldv},
	{"stts", fmt::stv},
	{"sra", fmt::log},
	{"call", fmt::call},
	{"pushtr", fmt::pushts},
	{"pushtv", fmt::pushts},
	{"popts", fmt::str},
	{"flushts", fmt::str},
	{"ldgaa", fmt::ldv},
	{"ldtaa", fmt::ldv},
	{"stgaa", fmt::stv},
	{"sttaa", fmt::stv},
	{"ldls", fmt::ldv},
	{"stls", fmt::stv},
	{"allocs", fmt::r1rd},
	{"copys", fmt::log},
	{"stb", fmt::store},
	{"sth", fmt::store},
	{"stw", fmt::store},
	{"stx", fmt::store},
	{"uldsb", fmt::load},
	{"uldsh", fmt::load},
	{"uldsw", fmt::load},
	{"uldub", fmt::load},
	{"ulduh", fmt::load},
	{"ulduw", fmt::load},
	{"uldx", fmt::load},
	{"rldsb", fmt::load},
	{"rldsh", fmt::load},
	{"rldsw", fmt::load},
	{"rldub", fmt::load},
	{"rlduh", fmt::load},
	{"rlduw", fmt::load},
	{"rldx", fmt::load},
	{"xlate", fmt::xlate},
	{"xlarg", fmt::xlate},
	{"stga", fmt::sta},
};

constexpr const char *k_subrs[] = {
	"rand",
	"mutex_owned",
	"mutex_owner",
	"mutex_type_adaptive",
	"mutex_type_spin",
	"rw_read_held",
	"rw_write_held",
	"rw_iswriter",
	"copyin",
	"copyinstr",
	"speculation",
	"progenyof",
	"strlen",
	"copyout",
	"copyoutstr",
	"alloca",
	"bcopy",
	"copyinto",
	"msgdsize",
	"msgsize",
	"getmajor",
	"getminor",
	"ddi_pathname",
	"strjoin",
	"lltostr",
	"basename",
	"dirname",
	"cleanpath",
	"strchr",
	"strrchr",
	"strstr",
	"strtok",
	"substr",
	"index",
	"rindex",
	"htons",
	"htonl",
	"htonll",
	"ntohs",
	"ntohl",
	"ntohll",
	"inet_ntop",
	"inet_ntoa",
	"inet_ntoa6",
	"toupper",
	"tolower",
	"getf",
	"json",
	"strtoll",
	"d_path",
	"copyinargs",
};
static_assert(sizeof(k_subrs) / sizeof(k_subrs[0]) == DIF_SUBR_MAX + 1);

void instruction(std::string &out, const difo &dp, dif_instr_t in)
{
	uint32_t op = DIF_INSTR_OP(in);
	if (op >= sizeof(k_optab) / sizeof(k_optab[0]))
		op = 0;
	const opent &e = k_optab[op];
	const char *n = e.name;
	const unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in), rd = DIF_INSTR_RD(in);

	switch (e.f) {
	case fmt::str: put(out, "%s", n); break;
	case fmt::log: put(out, "%-4s %%r%u, %%r%u, %%r%u", n, r1, r2, rd); break;
	case fmt::branch: put(out, "%-4s %u", n, DIF_INSTR_LABEL(in)); break;
	case fmt::load: put(out, "%-4s [%%r%u], %%r%u", n, r1, rd); break;
	case fmt::store: put(out, "%-4s %%r%u, [%%r%u]", n, r1, rd); break;
	case fmt::r1rd: put(out, "%-4s %%r%u, %%r%u", n, r1, rd); break;
	case fmt::cmp: put(out, "%-4s %%r%u, %%r%u", n, r1, r2); break;
	case fmt::tst: put(out, "%-4s %%r%u", n, r1); break;
	case fmt::lda:
		put(out, "%-4s DT_VAR(%u), %%r%u, %%r%u", n, r1, r2, rd);
		var_comment(out, dp, n, r1);
		break;
	case fmt::ldv:
		put(out, "%-4s DT_VAR(%u), %%r%u", n, DIF_INSTR_VAR(in), rd);
		var_comment(out, dp, n, DIF_INSTR_VAR(in));
		break;
	case fmt::stv:
		put(out, "%-4s %%r%u, DT_VAR(%u)", n, DIF_INSTR_RS(in), DIF_INSTR_VAR(in));
		var_comment(out, dp, n, DIF_INSTR_VAR(in));
		break;
	case fmt::sta:
		put(out, "%-4s DT_VAR(%u), %%r%u, %%r%u", n, DIF_INSTR_VAR(in), r2, rd);
		var_comment(out, dp, n, DIF_INSTR_VAR(in));
		break;
	case fmt::setx: {
		const uint32_t i = DIF_INSTR_INTEGER(in);
		put(out, "%-4s DT_INTEGER[%u], %%r%u", n, i, rd);
		if (i < dp.inttab.size())
			put(out, "\t\t! 0x%" PRIx64, dp.inttab[i]);
		break;
	}
	case fmt::sets: {
		const uint32_t s = DIF_INSTR_STRING(in);
		put(out, "%-4s DT_STRING[%u], %%r%u", n, s, rd);
		if (const char *str = str_at(dp, s))
			put(out, "\t\t! \"%s\"", str);
		break;
	}
	case fmt::ret: put(out, "%-4s %%r%u", n, rd); break;
	case fmt::call:
		put(out, "%-4s DIF_SUBR(%u), %%r%u\t\t! %s", n, DIF_INSTR_SUBR(in), rd,
		    subr_name(DIF_INSTR_SUBR(in)));
		break;
	case fmt::pushts: {
		static const char *const tnames[] = {"D type", "string"};
		const unsigned type = DIF_INSTR_TYPE(in);
		const char *pad;
		if (op == DIF_OP_PUSHTV) {
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
	case fmt::xlate:
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
	if (subr < sizeof(k_subrs) / sizeof(k_subrs[0]))
		return k_subrs[subr];
	return "unknown";
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
