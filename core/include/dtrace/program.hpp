// SPDX-License-Identifier: MIT
//
// dtrace/program.hpp - a compiled D program: what the compiler produces and
// every engine and the consumer receive (DOF's role in illumos; its on-disk
// and in-kernel form is documented in docs/program.md).
//
//   program
//     ├── clauses[]            one per D clause, in source order
//     │     ├── descs[]        probe descriptions (globs)
//     │     ├── predicate      DIF object or none
//     │     └── actions[]      one per D statement that records or acts
//     │           ├── kind     DTRACEACT_* / DTRACEAGG_* (uapi/dtrace/actions.h)
//     │           ├── args[]   DIF object + record (offset, size, type) each
//     │           └── keys[]   aggregation keys (DIF object + record each)
//     ├── aggregations[]       @name: function, key types, parameters
//     ├── variables[]          every user variable (global, self->, this->)
//     └── options              #pragma D option and -x, name -> value
//
// Firing layout: a firing of a clause writes dtrace_rechdr_t and then each
// action's arg records at their offsets (from the start of the header), in
// clause.size bytes. Statements that only change state (assignments) are
// compiled into an action of kind DTRACEACT_DIFEXPR with `records` false:
// their DIF runs, nothing is written.
//
// Strings are recorded as strsize bytes, NUL-padded. Integers as their
// size (1, 2, 4, 8), native endianness. Aggregation keys are concatenated,
// each at an 8-aligned offset within the key (the layout of
// aggregation::key_offsets).
#pragma once

#include <dtrace/api.hpp>
#include <dtrace/attributes.hpp>

#include <dtrace/probe_desc.hpp>

extern "C" {
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/dif.h>
}

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

DT_API_BEGIN

namespace dt {

// A DIF object: instructions and the tables they index.
struct difo {
	std::vector<dif_instr_t> text;
	std::vector<uint64_t> inttab;
	std::string strtab; // NUL-separated strings; sets indexes byte offsets
	std::vector<dtrace_difv_t> vartab;
	dtrace_diftype_t rtype{};
};

// What the consumer needs to format a recorded value.
struct value_member; // below: print()'s struct members

struct value_type {
	enum class kind : uint8_t {
		integer,  // size 1, 2, 4 or 8; is_signed
		pointer,  // size 8, printed in hex
		string,   // strsize bytes, NUL-padded
		bytes,    // a struct, union or array by value: size bytes
		stack,    // stack(): nframes 64-bit pcs, 0-terminated
		ustack,   // ustack(): pid, then nframes 64-bit pcs
		sym,      // sym()/func(): a kernel address (8 bytes)
		mod,      // mod(): a kernel address
		usym,     // usym()/ufunc(): pid then a user address (16 bytes)
		umod,     // umod(): pid then a user address
		uaddr,    // uaddr(): pid then a user address
	};
	kind k = kind::integer;
	uint32_t size = 8;
	bool is_signed = true;
	std::string name; // the D type's name, for print() ("int", "struct foo *")
	// Added for print() of structs and unions (additive; empty otherwise):
	// the members in declaration order, for dt_print.c's typed layout. A
	// char array member has kind string and its array size. Empty when
	// the type has a member print() cannot show (consumer falls back to
	// trace()'s output).
	std::vector<value_member> members;
	// Added: a ustack() aggregation key that holds a capture for DWARF
	// unwinding (dtrace/ustack_capture.hpp): the frames it keeps once
	// unwound (ustack(n)'s n, else ustackframes); 0 otherwise.
	uint32_t frames = 0;
};

// One member of a struct or union value_type (see value_type::members).
struct value_member {
	std::string name;
	uint32_t offset = 0; // bytes from the start of the enclosing value
	value_type type;
};

// One recorded value: how to compute it and where it lands.
struct record {
	difo expr;
	value_type type;
	uint32_t offset = 0;	// from the start of the firing's dtrace_rechdr_t
	uint32_t size = 0;	// bytes recorded (0: evaluated, nothing written)
	uint32_t alignment = 1;
};

struct action {
	uint16_t kind = DTRACEACT_NONE; // DTRACEACT_* or DTRACEAGG_*
	uint16_t libact = 0;		// DT_ACT_* when kind == DTRACEACT_LIBACT
	bool records = true;		// false: DIF runs for its side effects only
	std::vector<record> args;	// trace: 1; printf: the format's args; exit: 1 ...
	std::string format;		// printf/printa/system/freopen format string
	std::vector<uint32_t> aggs;	// printa/clear/trunc/normalize/denormalize: aggregation ids
	uint32_t aggid = 0;		// aggregating actions: aggregation id
	std::vector<record> keys;	// aggregating actions: the key values
	uint32_t nframes = 0;		// stack/ustack: frames to record
	uint32_t strsize = 0;		// ustack: jstack string space
	uint32_t line = 0;		// source line, for diagnostics
};

struct clause {
	std::vector<probe_desc> descs;	// as written, fields may be globs or empty
	std::string desc_text;		// as written, comma-separated
	std::optional<difo> predicate;
	std::vector<action> actions;
	uint32_t size = sizeof(dtrace_rechdr_t); // firing size, multiple of 8
	uint32_t alignment = 8;
	bool speculative = false;	// contains speculate()
	uint32_t line = 0;
	// Stability (illumos dtsd_descattr / dtsd_stmtattr, dtrace -v): the
	// least stable of its descriptions' attributes (their providers'
	// fields as dt_probe_info() takes them), and of what its predicate
	// and actions name (identifiers, args[], kernel symbols).
	dt_attribute_t desc_attr = k_attr_stable;
	dt_attribute_t stmt_attr = k_attr_stable;

	// Does the clause look at the thread its probe fired in (pid, tid,
	// execname, self->, stack(), ustack(), sym(), ...)? At a profile or
	// tick probe that is the thread the interrupt stopped, which the user
	// engine does not have (thread_context.cc).
	[[nodiscard]] bool reads_thread() const;
	// Per description (descs[i]), as illumos dtrace_probe_info() reports
	// it for dtrace -e -v: known when it named probes of one signature.
	struct desc_info {
		bool known = false;
		dt_attribute_t attr = k_attr_unstable; // the description's
		dt_attribute_t args = k_attr_unstable; // its arguments'
	};
	std::vector<desc_info> desc_infos;

	// Does a firing write a record (illumos dtrace_ecb_resize())? Not when
	// every action stores no data -- aggregations, assignments, and
	// speculate(), commit() and discard(), which act where the probe fires
	// (dtrace_ecb_action_add() gives them no size): a clause like
	// `{ @[execname] = count(); }`, `{ self->ts = timestamp; }` or
	// `{ commit(spec); }` prints nothing when it fires. A clause without
	// actions records its EPID (the probe line of the default output).
	[[nodiscard]] bool records_firing() const
	{
		if (actions.empty())
			return true;
		for (const action &a : actions)
			if (!DTRACEACT_ISAGG(a.kind) &&
			    !(a.kind == DTRACEACT_DIFEXPR && !a.records) &&
			    a.kind != DTRACEACT_SPECULATE && a.kind != DTRACEACT_COMMIT &&
			    a.kind != DTRACEACT_DISCARD)
				return true;
		return false;
	}
};

struct aggregation {
	uint32_t id = 0;		// 1-based, in first-use order
	std::string name;		// without the @; "" for the anonymous @
	uint16_t func = 0;		// DTRACEAGG_*
	std::vector<value_type> keys;
	std::vector<uint32_t> key_offsets; // of each key within the key bytes
	uint32_t key_size = 0;
	// quantize: none. lquantize: base, limit, step. llquantize: factor,
	// low, high, nsteps. Checked by the compiler.
	std::vector<int64_t> params;
	uint32_t nwords = 1; // int64_t words of value (actions.h layout)
};

struct variable {
	std::string name;
	uint32_t id = 0;	// DIF variable id (>= DIF_VAR_OTHER_UBASE, or array id)
	uint8_t kind = DIFV_KIND_SCALAR;
	uint8_t scope = DIFV_SCOPE_GLOBAL;
	dtrace_diftype_t type{};
	std::vector<value_type> key_types; // associative arrays: the tuple
};

struct program {
	std::vector<clause> clauses;
	std::vector<aggregation> aggregations; // aggregations[i].id == i + 1
	std::vector<variable> variables;
	// #pragma D option and -x, as written; typed by resolve_options()
	// (dtrace/options.hpp), which every value here passes.
	std::map<std::string, std::string> options;
	std::vector<std::string> formats;	// every printf-like format, for -S
	// Does the program read kernel memory (curthread, a kernel symbol,
	// the D library's translators over them)? The user engine runs in
	// dtrace's own process and has no kernel to read: such a program
	// goes to a kernel engine even when its probes are BEGIN/END.
	bool reads_kernel = false;

	// The value of an option, if set ("" for a set boolean option).
	[[nodiscard]] std::optional<std::string> option(const std::string &name) const
	{
		auto it = options.find(name);
		if (it == options.end())
			return std::nullopt;
		return it->second;
	}

	// Does the program take destructive actions (system(), raise(),
	// copyout(), ...)? Engines refuse to go() without -w (destructive.cc).
	[[nodiscard]] bool destructive() const;
};

} // namespace dt

DT_API_END
