// SPDX-License-Identifier: MIT
//
// dtrace(1)'s run path: illumos dtrace.c main() over the session
// (dtrace/session.hpp), which does the work; here are the options'
// meaning on the command line, the messages and the signals.
//
//   -c / -p          session.create_process / grab_process
//   -x -b            session.set_option: "failed to set -x NAME: why"
//   compile          each piece in command-line order: "failed to compile
//                    script F: ..." (-s) or "invalid probe specifier S: ..."
//   -S               the DIF of the program, to stderr; -e stops here
//   engine           -v or DTRACE_DEBUG: "dtrace: engine bpf (why)"
//   enable           "description 'BEGIN' matched 1 probe" (not quiet),
//                    "failed to enable 'S': ..."
//   go               "could not enable tracing: ..."; SIGINT/SIGTERM handled
//   loop             sleep ─► work (drain into the consumer) until exit(),
//                    a full fill buffer, ^C (a second ^C abandons the
//                    aggregations) or the processes are gone
//   finish           consumer.finish(): the final "\n", then the
//                    aggregations no printa() printed
//   status           exit()'s value, else 0; 1 on failure, 2 on usage
#include "run.hpp"

#include <dtrace/consumer.hpp>
#include <dtrace/session.hpp>

#include <signal.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dt::cli {
namespace {

volatile sig_atomic_t g_intr = 0;
volatile sig_atomic_t g_newline = 0;

void on_intr(int)
{
	if (g_intr == 0)
		g_newline = 1;
	if (g_intr < 2)
		g_intr = g_intr + 1;
}

void on_chld(int)
{
}

void install_handlers()
{
	struct sigaction act {};
	sigemptyset(&act.sa_mask);
	act.sa_flags = 0; // no SA_RESTART: a signal ends the engine's sleep
	act.sa_handler = on_intr;
	sigaction(SIGINT, &act, nullptr);
	sigaction(SIGTERM, &act, nullptr);
	act.sa_handler = on_chld;
	sigaction(SIGCHLD, &act, nullptr);
}

compiler::input::kind kind_of(char opt)
{
	switch (opt) {
	case 'P': return compiler::input::kind::provider;
	case 'm': return compiler::input::kind::module;
	case 'f': return compiler::input::kind::function;
	case 'i': return compiler::input::kind::id;
	case 's': return compiler::input::kind::script;
	default: return compiler::input::kind::name;
	}
}

void message(const std::string &msg)
{
	std::fflush(stdout);
	std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
}

[[noreturn]] void fail(int status, const std::string &msg)
{
	message(msg);
	std::exit(status);
}

std::string read_script(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	if (!in)
		fail(E_ERROR, "failed to open " + path + ": " + std::strerror(errno));
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

// What "matched N probes" and "failed to enable" call a piece.
std::string piece_name(const command &c)
{
	if (c.opt == 's')
		return c.arg;
	auto p = c.arg.find_first_of("{/;");
	return p == std::string::npos ? c.arg : c.arg.substr(0, p);
}

// -x and -b, in command-line order (illumos dtrace.c: dfatal("failed to
// set -x %s") / ("-b %s")); the flags that select modes we lack are
// refused. Returns -x errtags.
bool apply_options(const options &o, session &s)
{
	bool errtags = false;
	for (const auto &[k, v] : o.xopts) {
		if (k == "-a" || k == "-A" || k == "-G" || k == "-h")
			// Anonymous tracing, ELF linking, header generation.
			fail(E_USAGE, "option " + k + " is not supported by this implementation");
		if (k == "-F")
			s.set_option("flowindent", "", false);
		if ((k.starts_with("-") && k != "-b") || k == "engine")
			continue; // -L, engine (settings), -F (above), -H, -X: cpp details
		if (k == "errtags") {
			errtags = true; // "[D_TAG] " before compiler messages
			continue;
		}
		try {
			s.set_option(k == "-b" ? "bufsize" : k, v);
		} catch (const error &e) {
			fail(E_ERROR,
			     (k == "-b" ? "failed to set -b " + v : "failed to set -x " + k) +
				     ": " + e.what());
		}
	}
	if (o.quiet)
		s.set_option("quiet", "", false);
	if (o.destructive)
		s.set_option("destructive", "", false);
	return errtags;
}

session_settings settings_of(const options &o, const char *argv0)
{
	session_settings ss;
	for (const auto &[k, v] : o.xopts) {
		if (k == "engine") {
			// -x engine=kmod|bpf|user|auto (docs/architecture.md).
			auto e = parse_engine(v);
			if (!e)
				fail(E_ERROR, "invalid value for option engine: " + v +
						      " (user, bpf, kmod or auto)");
			ss.engine = *e;
		} else if (k == "-L") {
			ss.libdirs.push_back(v);
		}
	}
	ss.destructive = o.destructive;
	ss.zero_ok = o.zdefs;
	ss.cpp = o.cpp;
	ss.cpp_args = o.cpp_args;
	// $0 is the first script's name, else how dtrace was invoked.
	std::string dollar0 = argv0;
	for (const command &c : o.commands)
		if (c.opt == 's') {
			dollar0 = c.arg;
			break;
		}
	ss.macro_args.push_back(dollar0);
	ss.macro_args.insert(ss.macro_args.end(), o.macro_args.begin(), o.macro_args.end());
	ss.warn = message;
	return ss;
}

} // namespace

void start_processes(const options &o, session &s)
{
	try {
		for (const auto &[k, v] : o.xopts)
			if (k == "evaltime")
				s.set_option(k, v);
		for (const std::string &cmd : o.run)
			s.create_process(cmd);
		for (int32_t pid : o.grab)
			s.grab_process(pid);
	} catch (const error &e) {
		fail(E_ERROR, e.what());
	}
}

int run_program(const options &o, const char *argv0)
{
	bool quiet = o.quiet;
	session_settings ss = settings_of(o, argv0);
	ss.notice = [&quiet](const std::string &n) {
		if (!quiet)
			message(n);
	};
	session s(std::move(ss));
	start_processes(o, s);
	const bool errtags = apply_options(o, s);

	for (const command &c : o.commands) {
		compiler::input in;
		in.k = kind_of(c.opt);
		in.text = c.opt == 's' ? read_script(c.arg) : c.arg;
		if (c.opt == 's')
			in.file = c.arg;
		try {
			s.compile(in);
		} catch (const compiler::compile_error &e) {
			std::string msg = e.what();
			if (errtags)
				msg = "[" + e.diag().tag + "] " + msg;
			fail(E_ERROR, (c.opt == 's' ? "failed to compile script "
						    : "invalid probe specifier ") +
					      c.arg + ": " + msg);
		}
	}
	quiet = o.quiet || s.prog().option("quiet").has_value();

	if (o.show_dif) {
		std::fflush(stdout);
		std::fputs(s.disassemble().c_str(), stderr);
	}
	if (o.compile_only)
		return E_SUCCESS;

	FILE *out = stdout;
	if (!o.outfile.empty()) {
		out = std::fopen(o.outfile.c_str(), "a");
		if (out == nullptr)
			fail(E_ERROR, "failed to open output file '" + o.outfile +
					      "': " + std::strerror(errno));
	}

	const engine_decision &chosen = s.choose_engine();
	if (o.verbose || std::getenv("DTRACE_DEBUG") != nullptr)
		message(std::string("engine ") + engine_name(chosen.kind) + " (" + chosen.reason +
			")");
	if (chosen.refusal)
		fail(E_ERROR,
		     std::string("failed to initialize dtrace: ") + chosen.refusal->what());

	auto matched = [&](size_t i, size_t n) {
		if (!quiet)
			message(std::string(o.commands[i].opt == 's' ? "script" : "description") +
				" '" + piece_name(o.commands[i]) + "' matched " +
				std::to_string(n) + " probe" + (n == 1 ? "" : "s"));
	};
	std::vector<size_t> counts;
	try {
		counts = s.enable();
	} catch (const enable_error &e) {
		// The pieces before the one at fault were enabled.
		for (size_t i = 0; i < e.piece(); i++)
			matched(i, s.matched()[i]);
		fail(E_ERROR,
		     "failed to enable '" + piece_name(o.commands[e.piece()]) + "': " + e.what());
	}
	size_t total = 0;
	for (size_t i = 0; i < counts.size(); i++) {
		matched(i, counts[i]);
		total += counts[i];
	}
	if (total == 0 && !o.zdefs)
		fail(E_ERROR, "no probes matched");

	consumer_settings cons_s;
	cons_s.out = out;
	cons_s.err = stderr;
	cons_s.quiet = quiet;
	cons_s.refresh = [] {}; // the engine delivers aggregations before records
	consumer cons(s.prog(), s.enabled(), cons_s);

	try {
		s.go();
	} catch (const error &e) {
		fail(E_ERROR, std::string("could not enable tracing: ") + e.what());
	}
	if (o.destructive && !quiet)
		message("allowing destructive actions");
	install_handlers();
	bool more = s.work(cons); // -c processes run; what BEGIN traced
	std::fflush(out);
	while (more) {
		if (g_intr == 0)
			s.sleep();
		if (g_newline) {
			std::fputs("\n", out);
			g_newline = 0;
		}
		more = s.work(cons, g_intr != 0, g_intr > 1);
		std::fflush(out);
	}
	if (g_intr > 1) {
		// Impatient: the final newline, but no aggregations.
		std::fputs("\n", out);
		std::fflush(out);
		return cons.exit_status().value_or(E_SUCCESS);
	}
	cons.finish(); // the final newline, then the unprinted aggregations
	if (std::fflush(out) != 0)
		fail(E_ERROR, std::string("failed to write output: ") + std::strerror(errno));
	if (out != stdout)
		std::fclose(out);
	return cons.exit_status().value_or(E_SUCCESS);
}

} // namespace dt::cli
