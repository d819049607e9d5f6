// SPDX-License-Identifier: MIT
//
// dtrace/compiler.hpp - the D compiler's public face: D source in, a
// program (dtrace/program.hpp) out. The passes live in core/compiler/, one
// directory each; core/compiler/driver.cc numbers them.
//
// Errors: a user mistake raises compile_error carrying one diagnostic (the
// first error stops compilation, as in DTrace). Nothing here prints;
// warnings go to settings::warn.
#pragma once

#include <dtrace/api.hpp>

#include <dtrace/error.hpp>
#include <dtrace/program.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

DT_API_BEGIN

namespace dt {
class provider_registry;
}

namespace dt::compiler {

// One piece of D the user gave, in command-line order.
struct input {
	enum class kind {
		script,	  // -s FILE (text read by the caller) or a #! interpreter file
		name,	  // -n: a probe description, optionally with predicate and actions
		provider, // -P
		module,	  // -m
		function, // -f
		id,	  // -i
	};
	kind k = kind::name;
	std::string text; // the D source or the specifier
	std::string file; // -s: the script's path (diagnostics say "line N")
};

struct settings {
	provider_registry *registry = nullptr; // probe matching and args[] types
	std::vector<std::string> macro_args;   // $0 (script or "dtrace"), $1 ...
	std::optional<int32_t> target;	       // $target (-c / -p)
	bool cpp = false;		       // -C: run the C preprocessor first
	std::vector<std::string> cpp_args;     // -D -U -I, as "-DNAME=V", "-UNAME", "-IDIR"
	bool destructive = false;	       // -w
	bool zero_ok = false;		       // -Z: descriptions matching nothing are fine
	std::string engine = "user";	       // actions it cannot run are rejected naming it
	std::vector<std::string> libdirs;      // the D library dir (translators)
	// -x name=value, before the pragmas; each checked by option_error()
	// (dtrace/options.hpp) first, as the CLI does: a value it refuses makes
	// compile() throw option_value_error.
	std::map<std::string, std::string> options;
	std::function<void(const std::string &)> warn;
	// -L and -x libdir: D libraries of the user's, after libdirs. Each is
	// checked whole, as illumos compiles every library (its clauses are
	// dropped), and an error in one names it: "FILE", line N: ...
	std::vector<std::string> user_libdirs;
};

// A diagnostic in DTrace's terms: tag (D_SYNTAX, D_IDENT_UNDEF, ...) and
// where. message is DTrace's wording without prefix or line.
struct diagnostic {
	std::string tag;
	std::string file;
	uint32_t line = 0; // 0: not from a file (-n)
	uint32_t column = 0;
	std::string message;
	// Added by the compiler helper (additive): where in a clause the error
	// is, "action list" or "predicate"; shown as "in action list: " when
	// there is no line (illumos dt_set_errmsg), "" if none.
	std::string region;
};

// dt::error with errc::compile.
class compile_error : public error {
public:
	explicit compile_error(diagnostic d);
	[[nodiscard]] const diagnostic &diag() const { return d_; }
	// What dtrace(1) prints after "failed to compile script F: " or
	// "invalid probe specifier S: ": "line 3: syntax error near \"}\"" for
	// scripts, the bare message for -n.
	[[nodiscard]] const char *what() const noexcept override;

private:
	diagnostic d_;
};

// Compile all inputs into one program (they share variables and
// aggregations, as one dtrace invocation does).
[[nodiscard]] program compile(const std::vector<input> &inputs, const settings &s);

// dtrace -S: the program's DIF in DTrace's layout (see core/dif/disasm).
[[nodiscard]] std::string disassemble(const program &p);

// dtrace -h: the C header for the providers that D source `src` (read from
// `file`, for messages) defines -- provider p { probe q(int, char *); };
// -- with include guard `guard`. Per probe: P_Q(args...) places a USDT
// probe site (a stapsdt note, which our usdt provider and other stapsdt
// tools read; "-" in a probe name is "__" in the note), P_Q_ENABLED() is
// true while a tracer has it enabled (its semaphore, p_q_semaphore, is
// defined in the header, weak). Throws compile_error (D_SYNTAX,
// D_PROV_PRDUP, D_PROV_PRARGLEN) for a malformed definition.
[[nodiscard]] std::string provider_header(const std::string &src, const std::string &file,
					  const std::string &guard);

// A provider definition as dtrace -h and -G read it: the probes in
// DTrace's names ("query-start"; "__" in the source is "-") with their
// native argument types as written ("char *"). Empty when `src` does not
// begin with a provider definition (a D program); throws compile_error as
// provider_header() does for a malformed one.
struct probe_definition {
	std::string name;
	std::vector<std::string> args;
};
struct provider_definition {
	std::string name;
	std::vector<probe_definition> probes;
};
[[nodiscard]] std::vector<provider_definition> provider_definitions(const std::string &src,
								    const std::string &file);

// A probe's name in its stapsdt note and symbols ("query-start" is
// "query__start"), and the semaphore dtrace -h defines for it and dtrace -G
// refers to (p_query__start_semaphore for provider p).
[[nodiscard]] std::string usdt_note_name(const std::string &probe);
[[nodiscard]] std::string usdt_semaphore(const std::string &prov, const std::string &probe);

} // namespace dt::compiler

DT_API_END
