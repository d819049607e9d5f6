// SPDX-License-Identifier: MIT
//
// plan.cc - where a program's variables and tables live in the bpf
// engine's maps (translate.hpp layout), computed once per program.
//
//   dt_globals[0]:  8-byte slots of by-value globals, then for each by-ref
//                   global an 8-byte header (non-zero: the value is NULL)
//                   and its storage (strsize, or the type's size)
//   m->locals:      the same for clause-locals (this->)
//   dt_strtab[0]:   every DIF object's string table, concatenated (an
//                   identical or contained table is shared)
//   dt_tls/dt_dvars, dt_agg_<id>: key and value sizes, entries from
//   dynvarsize and aggsize.
//
// Key limits: a dvar key is at most DT_BPF_KEY_SIZE (8 KiB), an
// aggregation's keys at most DT_BPF_AGG_KEY_SIZE (16 KiB, the prefix
// included: a whole ustack() capture beside other keys, docs/ustack.md).
// Each map's key is its own size, not the limit, and its entries are
// aggsize / (key + value): a large key buys fewer entries, never more
// memory.
#include "codegen.hpp"

extern "C" {
#include "dif_env.h"
}

#include <algorithm>

namespace dt::engines::bpf {

bool var_byref(const dtrace_diftype_t &t)
{
	return t.dtdt_kind == DIF_TYPE_STRING || (t.dtdt_flags & DIF_TF_BYREF) != 0;
}

uint32_t var_refsize(const dtrace_diftype_t &t, uint64_t strsize)
{
	if (t.dtdt_kind == DIF_TYPE_STRING)
		return static_cast<uint32_t>(strsize);
	return t.dtdt_size ? t.dtdt_size : 1;
}

namespace {

uint32_t round8(uint64_t n)
{
	return static_cast<uint32_t>((n + 7) & ~static_cast<uint64_t>(7));
}

// Slots for the scalars of one scope: by-value first, then by-ref.
uint32_t place(const program &p, uint8_t scope, uint64_t strsize,
	       std::vector<std::pair<uint32_t, uint32_t>> &slots)
{
	uint32_t off = 0;
	for (int pass = 0; pass < 2; pass++)
		for (const variable &v : p.variables) {
			if (v.scope != scope || v.kind != DIFV_KIND_SCALAR ||
			    v.id < DIF_VAR_OTHER_UBASE || var_byref(v.type) != (pass == 1))
				continue;
			slots.emplace_back(v.id, off);
			off += pass == 0 ? 8 : 8 + round8(var_refsize(v.type, strsize));
		}
	return off;
}

void add_strtab(layout &l, const difo &d)
{
	if (d.strtab.empty()) {
		l.strtab_offsets.emplace_back(&d, 0);
		return;
	}
	size_t at = l.strtab.find(d.strtab);
	// A match must end where a string ends (tables end with a NUL).
	if (at == std::string::npos) {
		at = l.strtab.size();
		l.strtab += d.strtab;
		if (l.strtab.back() != '\0')
			l.strtab.push_back('\0');
	}
	l.strtab_offsets.emplace_back(&d, static_cast<uint32_t>(at));
}

bool calls_subr(const difo &d, uint32_t subr)
{
	return std::any_of(d.text.begin(), d.text.end(), [subr](dif_instr_t i) {
		return DIF_INSTR_OP(i) == DIF_OP_CALL && DIF_INSTR_SUBR(i) == subr;
	});
}

// What the layout needs of each DIFO: its strings, the subroutines that
// need more of the runtime.
void add_difo(layout &l, const difo &d)
{
	add_strtab(l, d);
	l.d_path = l.d_path || calls_subr(d, DIF_SUBR_D_PATH);
}

// Up to this many aggregations, each has a map of its own.
constexpr size_t k_agg_maps_unshared = 8;

uint32_t entries(uint64_t budget, uint64_t per)
{
	uint64_t n = per ? budget / per : 1;
	return static_cast<uint32_t>(std::clamp<uint64_t>(n, 1, 1u << 24));
}

// How many chunks the user engine carves its dynvarsize arena into (the
// formula of dif_dstate_init), or 0 when the program has no dynamic
// variables.
uint32_t dstate_chunks(const program &p, const plan_options &o)
{
	uint64_t chunksize = 0;
	for (const variable &v : p.variables) {
		if (v.kind != DIFV_KIND_ARRAY && v.scope != DIFV_SCOPE_THREAD)
			continue;
		uint64_t valsize = !var_byref(v.type)			 ? 8
				   : v.type.dtdt_kind == DIF_TYPE_STRING ? o.strsize
									 : v.type.dtdt_size;
		uint64_t nkeys = 1 + (v.scope == DIFV_SCOPE_THREAD ? 1 : 0) + v.key_types.size();
		uint64_t keybytes = 0;
		for (const value_type &t : v.key_types)
			if (t.k == value_type::kind::string)
				keybytes += o.strsize;
			else if (t.k == value_type::kind::bytes)
				keybytes += t.size;
		chunksize = std::max<uint64_t>(chunksize,
					       DIF_DSTATE_CHUNKSIZE(nkeys, keybytes, valsize));
	}
	if (chunksize == 0)
		return 0;
	chunksize = (std::max<uint64_t>(chunksize, 32 + 8) + 7) & ~7ULL;
	const uint64_t size =
		std::max<uint64_t>(o.dynvarsize, DIF_DSTATE_MINSIZE(chunksize)) / 8 * 8;
	if (size < 8 + chunksize)
		return 1;
	uint64_t n = size / (chunksize + 4), nb = 1;
	while (nb * 2 <= n && nb < (1u << 30))
		nb *= 2;
	n = (size - ((nb * 4 + 7) & ~7ULL)) / chunksize;
	return static_cast<uint32_t>(std::clamp<uint64_t>(n, 1, 1u << 24));
}

} // namespace

layout plan(const program &p, const plan_options &o)
{
	if (o.strsize == 0 || o.strsize > DT_BPF_STRSIZE_MAX)
		// o.strsize counts the NUL after the option's characters.
		throw translate_error("bpf engine: strsize " + std::to_string(o.strsize - 1) +
				      " is above the largest the bpf engine supports (" +
				      std::to_string(DT_BPF_STRSIZE_MAX - 1) + ")");
	layout l;
	l.strsize = o.strsize;

	l.globals_size =
		std::max<uint32_t>(8, place(p, DIFV_SCOPE_GLOBAL, o.strsize, l.global_slots));
	if (l.globals_size > DT_BPF_GLOBALS_MAX)
		throw translate_error("bpf engine: global variables need " +
				      std::to_string(l.globals_size) + " bytes, more than " +
				      std::to_string(DT_BPF_GLOBALS_MAX));
	uint32_t locals = place(p, DIFV_SCOPE_LOCAL, o.strsize, l.local_slots);
	if (locals > DT_BPF_LOCALS_SIZE)
		throw translate_error("bpf engine: clause-local variables need " +
				      std::to_string(locals) + " bytes, more than " +
				      std::to_string(DT_BPF_LOCALS_SIZE));

	for (const clause &c : p.clauses) {
		if (c.predicate)
			add_difo(l, *c.predicate);
		for (const action &a : c.actions) {
			for (const record &r : a.args)
				add_difo(l, r.expr);
			for (const record &r : a.keys)
				add_difo(l, r.expr);
		}
	}
	if (l.strtab.size() > DT_BPF_STRTAB_SIZE)
		throw translate_error("bpf engine: the program's strings need " +
				      std::to_string(l.strtab.size()) + " bytes, more than " +
				      std::to_string(DT_BPF_STRTAB_SIZE));

	// Dynamic variables.
	uint32_t tls_value = 8, dvar_key = 0, dvar_value = 8;
	for (const variable &v : p.variables) {
		uint32_t vs = var_byref(v.type) ? round8(var_refsize(v.type, o.strsize)) : 8;
		if (v.kind == DIFV_KIND_SCALAR && v.scope == DIFV_SCOPE_THREAD)
			tls_value = std::max(tls_value, vs);
		if (v.kind == DIFV_KIND_ARRAY && v.id >= DIF_VAR_OTHER_UBASE) {
			uint32_t k = 0;
			for (const value_type &t : v.key_types)
				k += t.k == value_type::kind::string
					     ? round8(o.strsize)
					     : round8(std::max<uint32_t>(t.size, 8));
			dvar_key = std::max(dvar_key, k);
			dvar_value = std::max(dvar_value, vs);
		}
	}
	l.tls_value_size = tls_value;
	l.dvar_key_size = static_cast<uint32_t>(sizeof(struct dt_bpf_dvar_key)) + dvar_key;
	l.dvar_value_size = dvar_value;
	if (l.dvar_key_size > DT_BPF_KEY_SIZE)
		throw translate_error("bpf engine: associative array keys need " +
				      std::to_string(l.dvar_key_size) + " bytes, more than " +
				      std::to_string(DT_BPF_KEY_SIZE));
	l.tls_entries = entries(o.dynvarsize, sizeof(struct dt_bpf_dvar_key) + tls_value);
	l.dvar_entries = entries(o.dynvarsize, l.dvar_key_size + dvar_value);
	// As many entries as the user engine's dynamic variable arena holds
	// (user_engine.cc layout_variables, dif_dstate_init), so that both
	// engines drop the same stores when dynvarsize runs out.
	if (uint32_t n = dstate_chunks(p, o); n != 0) {
		l.tls_entries = n;
		l.dvar_entries = n;
	}

	// Many aggregations: keys prefixed by the aggregation id, so that the
	// runtime can share one map among aggregations of one shape (a
	// program may use at most 64 maps).
	l.agg_key_prefixed = p.aggregations.size() > k_agg_maps_unshared;
	for (const aggregation &a : p.aggregations) {
		layout::agg_map m;
		m.key_size = 8 + a.key_size; // {aggid, generation}, the keys
		m.value_size = std::max<uint32_t>(a.nwords, 1) * 8;
		if (m.key_size > DT_BPF_AGG_KEY_SIZE)
			throw translate_error("bpf engine: the keys of @" + a.name + " need " +
					      std::to_string(m.key_size) + " bytes, more than " +
					      std::to_string(DT_BPF_AGG_KEY_SIZE));
		if (m.value_size > DT_BPF_SCRATCH_SIZE)
			throw translate_error("bpf engine: the value of @" + a.name +
					      " is too large (" + std::to_string(m.value_size) +
					      " bytes)");
		// A keyless aggregation has one entry (the runtime preallocates
		// small stores: maps.cc).
		m.entries = a.keys.empty() && a.key_size == 0
				    ? 1
				    : entries(o.aggsize, m.key_size + m.value_size);
		l.aggs.push_back(m);
	}
	return l;
}

} // namespace dt::engines::bpf
