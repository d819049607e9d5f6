// SPDX-License-Identifier: MIT
//
// dtrace/session.hpp - one tracing session: what illumos' dtrace_hdl_t is to
// libdtrace. dtrace(1) is argument parsing and printing over these calls
// (illumos dtrace.c main()); a test or any other consumer gets the same
// behaviour from the same calls (docs/architecture.md).
//
//   session s(settings)          dtrace_open(): settings, no work yet
//   s.set_option(name, value)    dtrace_setopt(): -x, -b (validated)
//   s.create_process(cmd)        -c: created, held at its entry point
//   s.grab_process(pid)          -p: watched ($target: the first of either)
//   s.registry()                 the providers (made once, knowing the
//                                processes: pid$target)
//   s.compile(input) ...         one command-line piece at a time, each
//                                compiled with the pieces before it
//   s.enable()                   the front half (descriptions -> probes,
//                                once, no engine), the engine's choice
//                                (engine_decision), its enable(): per-piece
//                                match counts, or enable_error naming the
//                                piece at fault
//   s.go()                       dtrace_go(): BEGIN fires
//   s.work(consumer)             dtrace_work(): the first call lets -c
//   loop: s.sleep()              processes run; each drains the engine into
//         s.work(consumer, ...)  the consumer, watches the processes, and
//                                stops the engine on exit(), ^C, a full fill
//                                buffer or the processes' end
//   ~session                     dtrace_close(): held processes are killed
//
// Nothing here prints: warnings (plugins, the compiler) and notices ("pid
// N has exited") go to the settings' callbacks; failures are dt::error
// (dtrace/error.hpp) with DTrace's message, which the caller prefixes.
#pragma once

#include <dtrace/api.hpp>

#include <dtrace/compiler.hpp>
#include <dtrace/engine.hpp>
#include <dtrace/error.hpp>
#include <dtrace/program.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

DT_API_BEGIN

namespace dt {

class consumer;
class provider;
class provider_registry;
struct probe;

enum class engine_kind { automatic, user, bpf, kmod };

// The -x engine value (user, bpf, kmod, auto or ""); nullopt when it names
// no engine we have.
[[nodiscard]] std::optional<engine_kind> parse_engine(const std::string &v);
[[nodiscard]] const char *engine_name(engine_kind k);

// Raise this process's descriptor limit (RLIMIT_NOFILE) as far as it may
// go (root: to fs.nr_open), as bpftrace does: the bpf engine holds a perf
// event descriptor for each probe it attaches one at a time (a uprobe per
// pid probe, a kprobe per fbt function without kprobe_multi), and
// `pid$target:libc.so.6::` is ~10^5 of them. Processes a session creates
// (-c) get the limit this process had. Never fails: an attach that runs
// out still says "Too many open files".
void raise_fd_limit();

// Which engine runs the program, and why (dtrace -v: "dtrace: engine bpf
// (probe syscall::read:entry needs a kernel engine)").
struct engine_decision {
	engine_kind kind = engine_kind::user; // user, bpf or kmod
	std::string reason;
	// Set when the program cannot run at all ("DTrace requires additional
	// privileges"): dtrace(1) says "failed to initialize dtrace: ...".
	std::optional<error> refusal;
};

struct session_settings {
	engine_kind engine = engine_kind::automatic; // -x engine
	bool destructive = false;		     // -w
	bool zero_ok = false;			     // -Z
	bool cpp = false;			     // -C
	std::vector<std::string> cpp_args;	     // -D -U -I as "-DNAME=V" ...
	std::vector<std::string> libdirs;	     // -L, after the D library's
	std::vector<std::string> macro_args;	     // $0, $1 ...
	// Warnings from plugins and the compiler (without "dtrace: ").
	std::function<void(const std::string &)> warn;
	// Notices about the processes ("pid 12 has exited"), not shown by
	// quiet callers (without "dtrace: ").
	std::function<void(const std::string &)> notice;
};

// enable() failed: the engine's error, and the command-line piece (index
// of compile() calls) whose clauses it concerns.
class enable_error : public error {
public:
	enable_error(const error &e, size_t piece) : error(e), piece_(piece) {}
	[[nodiscard]] size_t piece() const { return piece_; }

private:
	size_t piece_;
};

// dtrace -l: one probe a listing names (illumos list_probe()).
struct listed_probe {
	uint32_t id = 0; // the registry's, or dtrace.ko's with -x engine=kmod
	probe_desc desc;
	const probe *p = nullptr;	// the plugin's probe; null: a kernel probe
					// no plugin describes
	const provider *prov = nullptr; // its provider, when loaded
};

class session {
public:
	explicit session(session_settings s);
	~session();
	session(const session &) = delete;
	session &operator=(const session &) = delete;

	// dtrace_setopt(): an option (-x name=value, has_value false for a
	// bare -x name; -b is bufsize) for the compiler and the engines, before
	// the program's pragmas. Throws dt::error (errc::usage) with illumos'
	// words: "Invalid option name", "Invalid value for specified option".
	// A run-time option given no/off/false... is left unset. "engine"
	// sets settings.engine (before compile()).
	void set_option(const std::string &name, const std::string &value, bool has_value = true);

	// Process control (illumos dt_proc.c). Throw dt::error (errc::process,
	// or errc::usage for a bad -x evaltime) with DTrace's message.
	pid_t create_process(const std::string &cmd);
	void grab_process(pid_t pid);
	// $target: the first process created or grabbed.
	[[nodiscard]] std::optional<int32_t> target() const;
	// Every created and grabbed process, $target first.
	[[nodiscard]] const std::vector<int32_t> &processes() const { return pids_; }

	// The providers, made on first use with the processes known so far
	// (the pid provider's processes: every one created or grabbed).
	provider_registry &registry();

	// Compile one more piece; the program is then every piece so far
	// (they share variables and aggregations). Throws compile_error; a
	// script given by its file (in.file, in.text empty) is read here, and
	// throws dt::error (errc::io) "failed to open F: why" if it cannot be.
	void compile(const compiler::input &in);
	[[nodiscard]] const program &prog() const { return prog_; }
	[[nodiscard]] size_t pieces() const { return first_clause_.size(); }
	// The index in prog().clauses of a piece's first clause.
	[[nodiscard]] size_t first_clause(size_t piece) const { return first_clause_.at(piece); }
	// dtrace -v: the least stable description and statement attributes of
	// one piece's clauses (illumos dtrace_program_info(): Standard when it
	// has clauses, Stable/Stable/Common when it has none).
	struct stability {
		dt_attribute_t desc;
		dt_attribute_t stmt;
	};
	[[nodiscard]] stability piece_stability(size_t piece) const;
	// dtrace -S: the program's DIF.
	[[nodiscard]] std::string disassemble() const;

	// dtrace -l: every probe (the plugins', or with -x engine=kmod the
	// kernel's, loading the modules).
	[[nodiscard]] std::vector<listed_probe> list_all();
	// dtrace -l -n/-P/-m/-f/-i/-s: compile one more piece, as compile()
	// does (throws compile_error), and list the probes it matches, in
	// order (the kernel's with -x engine=kmod). A description that matches
	// nothing is not an error here (illumos: -l implies -Z) but is
	// returned in `unmatched`, for "failed to match".
	struct listing {
		std::vector<listed_probe> probes;
		std::vector<probe_desc> unmatched;
	};
	[[nodiscard]] listing list(const compiler::input &in);

	// dtrace -l: which engines can run a listed probe on the kernel at
	// hand (its provider's description, then what this kernel and this
	// process allow: the bpf hook's refusal, the kmod modules), and the
	// one tracing it alone would use: -x engine's, else what `auto` would
	// choose (engine_choice). Nothing is loaded to find out.
	struct probe_engines {
		// user, bpf, kmod: nullopt when that engine can run the probe
		// here, else why not.
		std::optional<std::string> refusal[3];
		// user, bpf, kmod: its provider runs it on that engine (where
		// the kernel and the process allow).
		bool described[3] = {};
		engine_kind used = engine_kind::automatic; // automatic: none
		// No kernel engine may be used by this process (bpf() refused:
		// privilege), so nothing can be said of this kernel.
		bool unprivileged = false;
	};
	[[nodiscard]] probe_engines engines_of(const listed_probe &l);

	// The engine that enable() will use, and why; made once.
	const engine_decision &choose_engine();
	// Match, choose, enable. Returns the number of probes each piece
	// matched (counted by the front half: no engine is built to count).
	// Throws enable_error; its code() is errc::no_match for a description
	// that matches nothing (without -Z).
	std::vector<size_t> enable();
	// What each piece matched, as enable() counted it (also after it threw:
	// the pieces before enable_error::piece() were enabled).
	[[nodiscard]] const std::vector<size_t> &matched() const { return matched_; }
	// The ECBs the engine enabled (what a consumer is built with).
	[[nodiscard]] const std::vector<enabled_probe> &enabled() const { return eps_; }

	// BEGIN fires; probes are live. Throws engine_error.
	void go();
	// Block for a switchrate (less with processes to watch), or until the
	// engine has data.
	void sleep();
	// One round of dtrace_work(). The first call after go() reads the
	// processes' mappings into the consumer and lets -c processes run;
	// every call drains the engine into `c`. stop: end tracing now (^C);
	// abandon: a second ^C, nothing more is drained. Process notices go
	// to settings.notice. Returns false once tracing has stopped and all
	// that remained was drained (or abandoned).
	bool work(consumer &c, bool stop = false, bool abandon = false);

private:
	struct impl;
	std::unique_ptr<impl> impl_;
	void stop_engine(); // once: END fires
	session_settings s_;
	std::vector<compiler::input> inputs_;
	program prog_;
	std::vector<size_t> first_clause_; // of each piece
	std::vector<int32_t> pids_;
	std::vector<enabled_probe> eps_;
	std::vector<size_t> matched_;
	// engines_of(): what each engine's own refusal said, asked once
	// (bpf: "" for none; kmod: by module name).
	std::optional<std::optional<error>> bpf_refusal_;
	std::map<std::string, std::optional<std::string>> kmod_refusal_;
	// engines_of(): what a provider says of its probes, by provider,
	// module and name.
	struct provider_answer {
		std::optional<std::string> refusal[3];
		bool described[3] = {};
		bool unprivileged = false;
	};
	provider_answer provider_says(const listed_probe &l);
	std::map<std::tuple<const void *, std::string, std::string>, provider_answer>
		provider_answer_;
};

} // namespace dt

DT_API_END
