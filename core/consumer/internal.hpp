// SPDX-License-Identifier: MIT
//
// consumer/internal.hpp - the consumer's shared state and the functions
// its files provide one another (private to core/consumer/).
//
//   consumer.cc   the engine_sink, finish(), exit status
//   records.cc    firings by EPID: default lines, trace(), stacks, symbols
//   printf.cc     printf()/printa() formats over records (dt_printf.c)
//   aggregate.cc  aggregation data: merge, clear, trunc, normalize, sort
//   agg_print.cc  default aggregation output and printa() (dt_consume.c)
//   faults.cc     fault and drop messages (dt_handle.c)
//   metrics.cc    aggregations as Prometheus/OpenMetrics text (-x metrics)
//   json.cc       -x oformat=json: the records as JSON Lines (json.hpp),
//                 called where the text layout would print
//   folded.cc     -x stackfmt=folded: stack-keyed aggregations as folded lines
#pragma once

#include "../program/printf_format.hpp"
#include "aggregate.hpp"
#include "symbols.hpp"
#include "unwind.hpp"

#include <dtrace/consumer.hpp>

#include <cstdarg>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dt::consumer_impl {

// printf(3) into a std::string.
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct state;
// The ustackframes option (frames a ustack() capture unwinds to).
uint32_t ustack_frames(const state &st);

// One value as recorded: what a conversion, trace() or a key prints.
struct datum {
	const uint8_t *p = nullptr;
	uint32_t size = 0;
	value_type::kind kind = value_type::kind::integer;
	bool is_signed = true;
	// Aggregation values (printa's %@ and default output).
	uint16_t agg_func = 0; // DTRACEAGG_*, 0 if not an aggregation value
	const aggregation *agg = nullptr;
	uint64_t normal = 1;
	uint32_t strsize = 0; // ustack: bytes of jstack strings after the pcs
	uint32_t nframes = 0; // ustack(n): n (0: ustackframes)
};

// Options that change output, from the program and setopt() at run time.
struct out_options {
	bool quiet = false;
	bool flowindent = false;
	bool aggsortkey = false;
	bool aggsortrev = false;
	bool aggpack = false;
	bool agghist = false;
	bool aggzoom = false;
	bool rawbytes = false;
	bool noresolve = false; // ustack() frames as addresses
	bool droptags = false;	// drop messages begin with their [DTRACEDROP_*] tag
	int aggsortpos = 0;
	int aggsortkeypos = 0;
	int stackindent = 14; // illumos _dtrace_stkindent
	int encoding = 0;     // option encoding: 0 unset (by $TERM), 1 ascii, 2 utf8
	bool json = false;    // oformat=json: records as JSON Lines (json.hpp)
	bool folded = false;  // stackfmt=folded: stack-keyed aggregations folded
};

class json_out;

struct state {
	const program &prog;
	// By epid - 1 where dense; a deque: ECBs added while a record is
	// consumed (during system(), consumer::set_system_wait()) leave the
	// one being consumed where it is.
	std::deque<enabled_probe> eps;
	std::function<void()> system_wait; // consumer::set_system_wait()
	std::map<uint32_t, size_t> epid_index;
	consumer_settings settings;
	FILE *out;
	out_options opt;
	// dtrace(1)'s g_quiet and g_flowindent: the options as tracing began
	// (the banner, probe lines and their newline); setopt() does not
	// change them.
	bool cli_quiet = false;
	bool cli_flowindent = false;
	symbols syms;
	unwinder unwind; // ustack() captures (-x ustackbytes) to pcs
	agg_store aggs;
	std::optional<int> exit_status;
	// switchrate as a setopt() (or the program) last set it, in ns: the
	// session drains at this rate (illumos dt_options.c's dynamic options).
	std::optional<uint64_t> switchrate;
	bool heading = false;
	int stdout_fd = -1; // freopen(): the original output's fd
	// Flow indent state (-F).
	int indent = 0;
	uint32_t last_epid = 0;
	// Parsed printf-like formats by action.
	std::map<const action *, fmt::format> formats;
	// oformat=json: the output layer the consumer calls instead of the
	// text layout (set once, before tracing).
	std::unique_ptr<json_out> json;
	// While set, put() appends here instead of writing (printa()'s
	// formatted text as a JSON field).
	std::string *capture = nullptr;

	state(const program &p, std::vector<enabled_probe> e, consumer_settings s);
	~state();

	void put(const std::string &s) const;
	[[nodiscard]] const enabled_probe *ep(uint32_t epid) const;
	const fmt::format &format_of(const action &a);
	// Apply an option by name (setopt() and program options). false: unknown.
	bool set_option(const std::string &name, const std::string &value);
};

// ---- records.cc ----------------------------------------------------------
void consume_records(state &st, std::span<const uint8_t> buf, uint32_t cpu);
// One frame of a stack() or ustack() record.
struct stack_frame {
	uint64_t pc = 0;
	int32_t pid = 0;	// ustack(): the process
	bool user = false;	// a ustack() frame
	std::string text;	// as dtrace prints it: mod`sym+0x1a, or 0x...
	bool annotated = false; // jstack(): a "[ ... ]" line follows
	std::string annotation;
};
// The frames of a stack()/ustack() record, leaf first (the engine's own
// frames above the probe site left out).
std::vector<stack_frame> stack_frames(state &st, const datum &d);
// dt_print_bytes(): a string if it looks like one, else a hex dump.
std::string print_bytes(const uint8_t *c, size_t n, int width, bool quiet, bool forceraw,
			bool rawbytes);
// dt_print_stack() / dt_print_ustack(): "\n" then a line per frame.
std::string print_stack(state &st, const datum &d, const std::string &format, int indent);
// sym(), mod(), usym(), umod(), uaddr() as trace() or a key prints them.
std::string print_symbolic(state &st, const datum &d, const std::string &format);
// The record of an action argument inside a firing.
datum record_datum(const record &r, const uint8_t *firing, size_t len);

// ---- printf.cc -----------------------------------------------------------
// dt_printf_format(): the text of fmt over args. aggvals: printa's values
// (%@ takes them in turn, the last repeating). false on a record mismatch.
bool format_text(state &st, const fmt::format &f, std::span<const datum> args,
		 std::span<const datum> aggvals, std::string &out);

// ---- agg_print.cc --------------------------------------------------------
// printa(@a, @b ...) without format (fmt == nullptr) or with one.
void print_aggs(state &st, const std::vector<uint32_t> &ids, const fmt::format *f);
// Every aggregation not yet printed (dtrace_aggregate_print).
void print_unprinted(state &st);
// One aggregation value as default output prints it (dt_print_datum).
std::string print_agg_datum(state &st, const datum &d);
// An aggregation entry's keys as records.
std::vector<datum> key_datums(const aggregation &a, const std::vector<uint8_t> &key);
// The sort the options ask for (aggsortkey, aggsortrev, aggsortpos ...).
sort_opts sorting(const state &st);
// The value default output prints for a count, sum, min, max, avg or
// stddev entry (normal applied); nullopt for the quantizations.
std::optional<long long> scalar_of(const aggregation &a, const std::vector<int64_t> &v,
				   uint64_t normal);

// ---- folded.cc -----------------------------------------------------------
// stackfmt=folded: an aggregation keyed by stack()/ustack() with a scalar
// value as "frame;frame;... count" lines; false (nothing printed) for any
// other aggregation.
bool print_folded(state &st, uint32_t aggid);

// ---- metrics.cc ----------------------------------------------------------
// consumer::metrics(): the aggregations as Prometheus/OpenMetrics text.
std::string metrics_text(state &st, bool openmetrics);

// ---- faults.cc -----------------------------------------------------------
std::string fault_message(const state &st, const fault_report &f);
std::string drop_message(std::string_view kind, uint64_t n, uint32_t cpu, bool tag = false);
[[nodiscard]] const char *fault_string(uint16_t code);

} // namespace dt::consumer_impl
