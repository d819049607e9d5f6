// SPDX-License-Identifier: MIT
//
// dtrace(1)'s run path: illumos dtrace.c main() over the session
// (dtrace/session.hpp, which does the work: compile by piece, enable, go,
// work). Here: the options' meaning on the command line, DTrace's messages
// ("failed to compile script F", "invalid probe specifier S", "description
// 'S' matched N probes", "failed to enable 'S'"), the signals (^C stops
// tracing, a second ^C abandons the aggregations) and the exit status
// (exit()'s value, else 0; 1 on failure, 2 on usage).
#include "run.hpp"

#include "list.hpp"

#include <dtrace/consumer.hpp>
#include <dtrace/metrics.hpp>
#include <dtrace/session.hpp>

#include <signal.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
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

// What "matched N probes" and "failed to enable" call a piece.
std::string piece_name(const command &c)
{
	if (c.opt == 's')
		return c.arg;
	auto p = c.arg.find_first_of("{/;");
	return p == std::string::npos ? c.arg : c.arg.substr(0, p);
}

} // namespace

compiler::input input_of(const command &c)
{
	using k = compiler::input::kind;
	compiler::input in{k::name, c.arg, ""};
	switch (c.opt) {
	case 'P': in.k = k::provider; break;
	case 'm': in.k = k::module; break;
	case 'f': in.k = k::function; break;
	case 'i': in.k = k::id; break;
	case 's': in = {k::script, c.text, c.arg}; break; // "": the session reads it
	default: break;
	}
	return in;
}

FILE *open_output(const options &o)
{
	if (o.outfile.empty())
		return stdout;
	FILE *out = std::fopen(o.outfile.c_str(), "a");
	if (out == nullptr)
		fail(E_ERROR,
		     "failed to open output file '" + o.outfile + "': " + std::strerror(errno));
	return out;
}

// In the order of illumos dtrace.c main(): the settings, then -x and -b
// ("failed to set -x NAME: why"; the modes we lack refused), then the -c
// and -p processes.
std::unique_ptr<session> open_session(const options &o, const char *argv0,
				      std::function<void(const std::string &)> notice)
{
	session_settings ss;
	ss.destructive = o.destructive;
	ss.zero_ok = o.zdefs;
	ss.cpp = o.cpp;
	ss.cpp_args = o.cpp_args;
	// $0 is the first script's name, else how dtrace was invoked.
	ss.macro_args.emplace_back(argv0);
	for (const command &c : o.commands)
		if (c.opt == 's') {
			ss.macro_args[0] = c.arg;
			break;
		}
	ss.macro_args.insert(ss.macro_args.end(), o.macro_args.begin(), o.macro_args.end());
	for (const auto &[k, v, has_value] : o.xopts)
		if (k == "-L")
			ss.libdirs.push_back(v);
	ss.warn = message;
	ss.notice = std::move(notice);
	auto s = std::make_unique<session>(std::move(ss));
	for (const auto &[k, v, has_value] : o.xopts) {
		if (k == "-a" || k == "-A")
			// Anonymous tracing (-h and -G are main.cc's).
			fail(E_USAGE, "option " + k + " is not supported by this implementation");
		if (k.starts_with("-") && k != "-b" && k != "-F")
			continue; // -L (above), -H, -X: cpp details
		try {
			if (k == "-F")
				s->set_option("flowindent", "", false);
			else
				s->set_option(k == "-b" ? "bufsize" : k, v, has_value);
		} catch (const error &e) {
			fail(E_ERROR, (k == "-b" ? "failed to set -b " : "failed to set -x ") +
					      (k == "-b" ? v : k) + ": " + e.what());
		}
	}
	if (o.quiet)
		s->set_option("quiet", "", false);
	if (o.destructive)
		s->set_option("destructive", "", false);
	try {
		for (const std::string &cmd : o.run)
			s->create_process(cmd);
		for (int32_t pid : o.grab)
			s->grab_process(pid);
	} catch (const error &e) {
		fail(E_ERROR, e.what());
	}
	return s;
}

namespace {

// dtrace -v: the piece's least stable attributes, as dtrace.c's
// exec_prog() prints them after its "matched" notice (with -e, without
// the blank line that ends the report of an enabled piece).
void stability_report(FILE *out, session &s, const command &c, size_t piece, bool enabled)
{
	session::stability st = s.piece_stability(piece);
	std::fprintf(out, "\nStability attributes for %s %s:\n",
		     c.opt == 's' ? "script" : "description", piece_name(c).c_str());
	print_attr_block(out, "Minimum Probe Description Attributes", st.desc);
	print_attr_block(out, "Minimum Statement Attributes", st.stmt);
	if (enabled) {
		std::fputs("\n", out);
		return;
	}
	// dtrace.c info_stmt(): each description, and what dt_probe_info()
	// says of the probes it names.
	size_t end = piece + 1 < s.pieces() ? s.first_clause(piece + 1) : s.prog().clauses.size();
	for (size_t i = s.first_clause(piece); i < end; i++) {
		const clause &cl = s.prog().clauses[i];
		for (size_t j = 0; j < cl.descs.size(); j++) {
			const probe_desc &d = cl.descs[j];
			std::fprintf(out, "\n%s:%s:%s:%s\n", d.provider.c_str(), d.mod.c_str(),
				     d.func.c_str(), d.name.c_str());
			if (j >= cl.desc_infos.size() || !cl.desc_infos[j].known)
				continue;
			std::vector<const probe *> ps;
			try {
				ps = s.registry().match(d);
			} catch (const error &) {
				continue;
			}
			if (ps.empty())
				continue;
			print_probe_info(out, cl.desc_infos[j].attr, cl.desc_infos[j].args,
					 s.registry().args(*ps[0]));
		}
	}
}

} // namespace

int run_program(const options &o, const char *argv0)
{
	bool quiet = o.quiet;
	auto sp = open_session(o, argv0, [&quiet](const std::string &n) {
		if (!quiet)
			message(n);
	});
	session &s = *sp;
	bool errtags = false; // -x errtags: "[D_TAG] " before compiler messages
	for (const auto &x : o.xopts)
		errtags = errtags || x.name == "errtags";

	for (const command &c : o.commands) {
		try {
			s.compile(input_of(c));
		} catch (const compiler::compile_error &e) {
			std::string msg = e.what();
			// illumos tags only D_ errors (xyerror()); an EDT_ error is
			// its message alone.
			if (errtags && e.diag().tag.rfind("D_", 0) == 0)
				msg = "[" + e.diag().tag + "] " + msg;
			fail(E_ERROR, (c.opt == 's' ? "failed to compile script "
						    : "invalid probe specifier ") +
					      c.arg + ": " + msg);
		} catch (const error &e) {
			fail(E_ERROR, e.what()); // a script that cannot be read
		}
	}
	quiet = o.quiet || s.prog().option("quiet").has_value();

	if (o.show_dif) {
		std::fflush(stdout);
		std::fputs(s.disassemble().c_str(), stderr);
	}
	if (o.compile_only) {
		if (o.verbose)
			for (size_t i = 0; i < o.commands.size(); i++)
				stability_report(stdout, s, o.commands[i], i, false);
		return E_SUCCESS;
	}

	// -x metrics=ADDRESS:PORT (or the pragma): listening before any probe
	// is enabled; scrapes are answered from the work loop below.
	std::unique_ptr<metrics_server> metrics;
	if (auto m = s.prog().option("metrics")) {
		metrics_address at;
		try {
			at = parse_metrics_address(*m);
		} catch (const error &e) {
			fail(E_ERROR, std::string("failed to set -x metrics: ") + e.what());
		}
		try {
			metrics = std::make_unique<metrics_server>(at);
		} catch (const error &e) {
			fail(E_ERROR, e.what());
		}
		// With port 0 the caller learns the port only from here.
		if (!quiet || at.port == 0)
			message("serving metrics at http://" + metrics->address() + "/metrics");
	}

	FILE *out = open_output(o);
	const engine_decision &chosen = s.choose_engine();
	// Not under -v, whose output is DTrace's (the stability report).
	if (std::getenv("DTRACE_DEBUG") != nullptr)
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
		if (o.verbose)
			stability_report(out, s, o.commands[i], i, true);
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
	// dtrace.c's notice, after go(): -w or the destructive pragma alike
	if ((o.destructive || s.prog().option("destructive").has_value()) && !quiet)
		message("allowing destructive actions");
	install_handlers();
	bool more = s.work(cons); // -c processes run; what BEGIN traced
	std::fflush(out);
	while (more) {
		if (metrics)
			metrics->serve(cons); // between two drains: a whole snapshot
		if (g_intr == 0)
			s.sleep();
		if (g_newline) {
			if (!cons.bare_output())
				std::fputs("\n", out);
			g_newline = 0;
		}
		more = s.work(cons, g_intr != 0, g_intr > 1);
		std::fflush(out);
	}
	metrics.reset(); // tracing has stopped: scrapes are refused from here
	if (g_intr > 1) {
		// Impatient: the final newline, but no aggregations.
		if (!cons.bare_output())
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
