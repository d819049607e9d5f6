// SPDX-License-Identifier: MIT
//
// dtrace/options.hpp - D's options: the one table of their names, kinds,
// defaults and limits (illumos dt_options.c), and the typed values a
// program's option map resolves to. Part of the program model: the
// compiler, the engines, the consumer and the session read options from
// here and from nowhere else.
//
//   -x NAME=VALUE ─┐                       (checked as they come)
//   #pragma D      ├─► option_error() ──► program::options  NAME -> VALUE
//    option ...   ─┘   option_unsets()           │
//                                                ▼
//                                       resolve_options()   once, typed
//                                                │
//              ┌───────────────┬─────────────────┼─────────────┐
//              ▼               ▼                 ▼             ▼
//          compiler       user engine        bpf engine    kmod engine
//    (stackframes ...)   (bufsize ...)      (aggrate ...)  (program blob)
//
// Kinds and how a value reads (illumos' dt_opt_* functions):
//   size     dt_opt_size(): a number with an optional k, m, g or t suffix
//   rate     dt_opt_rate(): a number with a unit (ns nsec us usec ms msec
//            s sec m min h hour d day) or hz; no unit means nanoseconds
//   runtime  dt_opt_runtime(): a yes/no flag or a count: empty, one of the
//            couples yes/no enable/disable enabled/disabled true/false
//            on/off set/unset, or a number. A negative word unsets the
//            option (option_unsets(): `-x quiet=no` is not quiet); read as
//            a count, a positive word is 1 and empty is the default
//   policy   dt_opt_bufpolicy(): switch, fill or ring
//   resize   dt_opt_bufresize(): auto or manual
//   text     free form (cpp paths, engine, evaltime ...), read where used
//
// Errors keep DTrace's words: option_error() returns dtrace_errmsg()'s
// "Invalid option name" / "Invalid value for specified option" (a text
// option's value checked as its dt_opt_* function does: a flag such as
// zdefs takes none, linkmode one of its words ...) (the CLI
// and the compiler wrap them in "failed to set -x NAME: ..."), and
// resolve_options() throws option_value_error("invalid value for option
// NAME: VALUE") for a value that option_error() would have refused (a map
// not built through it). A map every entry of which passed option_error()
// always resolves.
//
// Limits: resolve_options() clamps a value into its table entry's
// [min, max] (the model's limits, e.g. strsize >= 1). An engine's own
// capability (dtrace.ko's DTRACE_MAX_NSPEC, its bufsize ceiling, the kmod
// engine's 1 ms aggrate floor) is the engine's to apply on top.
#pragma once

#include <dtrace/api.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

DT_API_BEGIN

namespace dt {

enum class option_kind : uint8_t { text, size, rate, runtime, policy, resize, stdc };

// compile: the compiler reads it (it shapes types or record layouts);
// run: the engines, the consumer or the session read it once tracing.
enum class option_phase : uint8_t { compile, run };

// Who honours an option (option_info::readers, a bit set).
enum option_reader : uint8_t {
	k_read_compiler = 1u << 0,
	k_read_consumer = 1u << 1,
	k_read_session = 1u << 2, // the work loop (switchrate ...)
	k_read_user = 1u << 3,	  // the engines
	k_read_bpf = 1u << 4,
	k_read_kmod = 1u << 5,
};
inline constexpr uint8_t k_read_engines = k_read_user | k_read_bpf | k_read_kmod;

// One row of the option table.
struct option_info {
	const char *name;
	option_kind kind;
	option_phase phase;
	uint8_t readers; // option_reader bits; 0: accepted (illumos has it), read by no one
	uint64_t dflt;	 // size, rate, runtime count: the value when unset
	uint64_t min, max;
};

// The whole table, by name.
[[nodiscard]] std::span<const option_info> option_table();
// NAME's row, or nullptr when DTrace has no such option.
[[nodiscard]] const option_info *find_option(std::string_view name);

// What illumos' dtrace_setopt() says of NAME=VALUE (has_value false: the
// bare `-x NAME` or `#pragma D option NAME`): nullptr when the option is
// known and the value reads, else "Invalid option name" or "Invalid value
// for specified option".
[[nodiscard]] const char *option_error(const std::string &name, const std::string &value,
				       bool has_value);
// option_error() for `#pragma D option` (and setopt()): also "Option
// cannot be used from within a D program" (EDT_BADOPTCTX) for the options
// that only the command line may set (cpppath, define, incdir, undef,
// cpphdrs, ldpath, stdc), as their dt_opt_* functions refuse a compilation
// in progress.
[[nodiscard]] const char *pragma_option_error(const std::string &name, const std::string &value,
					      bool has_value);

// What dt_opt_version() says of a D version string: nullptr for a version
// this compiler implements (1.0 ... 1.13), else "Version is not properly
// formatted or is too large" or "Requested version is not supported by
// compiler". option_error() gives these for `version`.
[[nodiscard]] const char *version_error(const std::string &v);

// A run-time option given one of dt_opt_runtime()'s negative words (no,
// disable, disabled, false, off, unset): illumos then leaves it unset, so
// the option map drops it.
[[nodiscard]] bool option_unsets(const std::string &name, const std::string &value);

// "invalid value for option NAME: VALUE".
class option_value_error : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// One size or rate value as dt_opt_size() / dt_opt_rate() read it (rate:
// nanoseconds). Throws option_value_error.
[[nodiscard]] uint64_t parse_size_option(const std::string &name, const std::string &v);
[[nodiscard]] uint64_t parse_rate_option(const std::string &name, const std::string &v);

enum class buffer_policy : uint8_t { switch_, fill, ring };

// A program's options, typed: what resolve_options() returns (a value
// initialised one, `resolved_options{}`, is all zeros, not the defaults).
// Every field comes from the table's default when the option is unset;
// sizes in bytes, rates in nanoseconds.
struct resolved_options {
	// Buffers.
	uint64_t bufsize;	 // principal buffer, per CPU
	buffer_policy bufpolicy; // switch, fill or ring
	uint64_t aggsize;	 // aggregation buffer
	uint64_t dynvarsize;	 // dynamic variables (self->, associative arrays)
	uint64_t strsize;	 // string size, NUL included; >= 1
	uint32_t nspec;		 // speculation buffers
	uint64_t specsize;	 // bytes each
	// Rates.
	uint64_t aggrate;    // reading aggregations
	uint64_t switchrate; // draining the buffers
	uint64_t statusrate; // status checks
	uint64_t cleanrate;  // cleaning speculations; 0: the engine's own (dtrace.ko: 101 Hz)
	// Record layouts (the compiler's): default frames of stack(),
	// ustack(), jstack(), and jstack()'s string space.
	uint32_t stackframes, ustackframes, jstackframes;
	uint32_t jstackstrsize;
	// maxframes: the most frames any stack()/ustack()/jstack() records
	// and stackdepth/ustackdepth count; 0 when unset (no limit).
	uint32_t maxframes;
	// Flags.
	bool destructive; // -w or #pragma D option destructive
	bool quiet;	  // -q
	bool flowindent;  // -F
};

// Resolve NAME -> VALUE (program::options, or the compiler's map while it
// applies pragmas). Throws option_value_error.
[[nodiscard]] resolved_options resolve_options(const std::map<std::string, std::string> &opts);

} // namespace dt

DT_API_END
