// SPDX-License-Identifier: MIT
//
// dtrace(1)'s run path, in the order of illumos dtrace.c main():
//
//   -c / -p          create (held at its entry point, or just after exec with
//                    -x evaltime=exec) / grab the processes
//   compile          each piece in command-line order; piece i is compiled
//                    together with pieces 0..i-1 (they share variables and
//                    aggregations), so a failure names the piece at fault:
//                    "failed to compile script F: ..." (-s) or
//                    "invalid probe specifier S: ..." (-n -P -m -f -i)
//   -S               the DIF of the program, to stderr; -e stops here
//   engine           -x engine=user|bpf|auto (engine_choice.hpp); -v or
//                    DTRACE_DEBUG: "dtrace: engine bpf (why)"
//   enable           on that engine, piece by piece as well:
//                    "description 'BEGIN' matched 1 probe" (not quiet),
//                    "failed to enable 'S': ..."
//   go               BEGIN; release -c processes; SIGINT/SIGTERM handled
//   loop             wait (switchrate, default 1s) ─► drain ─► consumer
//                    until exit(), a full fill buffer, ^C (a second ^C
//                    abandons the aggregations) or the processes are gone
//   stop             END; drain; consumer.finish() (the final "\n", then
//                    the aggregations no printa() printed)
//   status           exit()'s value, else 0; 1 on failure, 2 on usage
#include "run.hpp"

#include "engine_choice.hpp"
#include "procs.hpp"

#include <dtrace/compiler.hpp>
#include <dtrace/consumer.hpp>
#include <dtrace/engine.hpp>
#include <dtrace/options.hpp>
#include <dtrace/provider.hpp>

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
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

void notice(bool quiet, const std::string &msg)
{
	if (quiet)
		return;
	std::fflush(stdout);
	std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
}

[[noreturn]] void fail(int status, const std::string &msg)
{
	std::fflush(stdout);
	std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
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

} // namespace

int run_program(const options &o, const char *argv0)
{
	procs ps;
	std::optional<int32_t> target;
	try {
		for (const auto &[k, v] : o.xopts)
			if (k == "evaltime")
				ps.evaltime(v);
		for (const std::string &cmd : o.run) {
			pid_t pid = ps.create(cmd);
			if (!target)
				target = pid;
		}
		for (int32_t pid : o.grab) {
			ps.grab(pid);
			if (!target)
				target = pid;
		}
	} catch (const std::runtime_error &e) {
		fail(E_ERROR, e.what());
	}
	std::vector<int32_t> proc_ids;
	if (target)
		proc_ids.push_back(*target);

	provider_registry reg(plugin_search_path(), proc_ids, [](const std::string &msg) {
		std::fflush(stdout);
		std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
	});

	compiler::settings cs;
	cs.registry = &reg;
	cs.target = target;
	cs.cpp = o.cpp;
	cs.cpp_args = o.cpp_args;
	cs.destructive = o.destructive;
	cs.zero_ok = o.zdefs;
	cs.engine = "user";
	// The D library (translators, psinfo_t ...) first, then -L dirs.
	{
		std::error_code ec;
		std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
		std::filesystem::path rel = exe.parent_path().parent_path() / DTRACE_DLIB_SUBDIR;
		if (!ec && std::filesystem::is_directory(rel, ec))
			cs.libdirs.push_back(rel.lexically_normal().string());
		else if (std::filesystem::is_directory(DTRACE_DLIB_INSTALL_DIR, ec))
			cs.libdirs.emplace_back(DTRACE_DLIB_INSTALL_DIR);
	}
	bool errtags = false; // -x errtags: "[D_TAG] " before compiler messages
	engine_kind asked = engine_kind::automatic;
	for (const auto &[k, v] : o.xopts) {
		if (k == "engine") {
			// DESIGN.md §2: -x engine=kmod|bpf|user|auto.
			std::string why;
			auto e = parse_engine(v, why);
			if (!e)
				fail(E_ERROR, why);
			asked = *e;
			if (asked != engine_kind::automatic)
				cs.engine = engine_name(asked);
			continue;
		}
		// illumos dtrace.c: dfatal("failed to set -x %s") / ("-b %s").
		if (k == "-b") {
			if (const char *why = option_error("bufsize", v, true))
				fail(E_ERROR, "failed to set -b " + v + ": " + why);
			cs.options["bufsize"] = v;
			continue;
		}
		if (!k.starts_with("-"))
			if (const char *why = option_error(k, v, true))
				fail(E_ERROR, "failed to set -x " + k + ": " + why);
		if (k == "errtags")
			errtags = true;
		else if (k == "-F")
			cs.options["flowindent"] = "";
		else if (k == "-L")
			cs.libdirs.push_back(v);
		else if (k == "-a" || k == "-A" || k == "-G" || k == "-h")
			// Anonymous tracing, ELF linking, header generation.
			fail(E_USAGE, "option " + k + " is not supported by this implementation");
		else if (k.starts_with("-")) // -H, -X: cpp details we do not have
			continue;
		else if (option_unsets(k, v))
			cs.options.erase(k);
		else
			cs.options[k] = v;
	}
	if (o.quiet)
		cs.options["quiet"] = "";
	if (o.destructive)
		cs.options["destructive"] = "";
	cs.warn = [](const std::string &w) {
		std::fflush(stdout);
		std::fprintf(stderr, "dtrace: %s\n", w.c_str());
	};
	// $0 is the first script's name, else how dtrace was invoked.
	std::string dollar0 = argv0;
	for (const command &c : o.commands)
		if (c.opt == 's') {
			dollar0 = c.arg;
			break;
		}
	cs.macro_args.push_back(dollar0);
	cs.macro_args.insert(cs.macro_args.end(), o.macro_args.begin(), o.macro_args.end());

	// Compile piece by piece (each with the pieces before it).
	std::vector<compiler::input> inputs;
	std::vector<size_t> first_clause; // of each piece
	program prog;
	for (const command &c : o.commands) {
		compiler::input in;
		in.k = kind_of(c.opt);
		if (c.opt == 's') {
			in.text = read_script(c.arg);
			in.file = c.arg;
		} else {
			in.text = c.arg;
		}
		inputs.push_back(std::move(in));
		try {
			program p = compiler::compile(inputs, cs);
			first_clause.push_back(prog.clauses.size());
			prog = std::move(p);
		} catch (const compiler::compile_error &e) {
			std::string msg = e.what();
			if (errtags)
				msg = "[" + e.diag().tag + "] " + msg;
			if (c.opt == 's')
				fail(E_ERROR, "failed to compile script " + c.arg + ": " + msg);
			fail(E_ERROR, "invalid probe specifier " + c.arg + ": " + msg);
		}
	}
	bool quiet = o.quiet || prog.option("quiet").has_value();

	if (o.show_dif) {
		std::fflush(stdout);
		std::fputs(compiler::disassemble(prog).c_str(), stderr);
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

	engine_decision chosen = choose_engine(asked, prog, reg);
	if (o.verbose || std::getenv("DTRACE_DEBUG") != nullptr) {
		std::fflush(stdout);
		std::fprintf(stderr, "dtrace: engine %s (%s)\n", engine_name(chosen.kind),
			     chosen.reason.c_str());
	}
	if (!chosen.failure.empty())
		fail(E_ERROR, "failed to initialize dtrace: " + chosen.failure);

	// Enable piece by piece: each prefix on a fresh engine, so that
	// "failed to enable" names the piece whose probes the engine refused;
	// the last engine is the one that runs.
	engine_settings es;
	es.registry = &reg;
	es.zero_ok = o.zdefs;
	es.destructive = o.destructive;
	es.procs = proc_ids;
	std::unique_ptr<engine> eng;
	std::vector<enabled_probe> eps;
	size_t total = 0;
	for (size_t i = 0; i < o.commands.size(); i++) {
		size_t lo = first_clause[i];
		size_t hi = i + 1 < first_clause.size() ? first_clause[i + 1] : prog.clauses.size();
		program part = prog;
		part.clauses.resize(hi);
		eng = make_engine(chosen.kind, es);
		try {
			eps = eng->enable(part);
		} catch (const engine_error &e) {
			fail(E_ERROR,
			     "failed to enable '" + piece_name(o.commands[i]) + "': " + e.what());
		}
		size_t n = 0;
		for (const enabled_probe &ep : eps)
			n += ep.clause >= lo && ep.clause < hi ? 1 : 0;
		total += n;
		notice(quiet, std::string(o.commands[i].opt == 's' ? "script" : "description") +
				      " '" + piece_name(o.commands[i]) + "' matched " +
				      std::to_string(n) + " probe" + (n == 1 ? "" : "s"));
	}
	if (total == 0 && !o.zdefs)
		fail(E_ERROR, o.commands.empty() ? "no probes specified" : "no probes matched");
	if (!eng) {
		eng = make_engine(chosen.kind, es);
		eps = eng->enable(prog);
	}

	consumer_settings cons_s;
	cons_s.out = out;
	cons_s.err = stderr;
	cons_s.quiet = quiet;
	cons_s.refresh = [] {}; // the engine delivers aggregations before records
	consumer cons(prog, eps, cons_s);

	// Validated (option_error) before compiling: it resolves.
	uint64_t switchrate = resolve_options(prog.options).switchrate;
	if (!ps.empty())
		switchrate = std::min<uint64_t>(switchrate, 50000000); // watch the processes

	try {
		eng->go();
	} catch (const engine_error &e) {
		fail(E_ERROR, std::string("could not enable tracing: ") + e.what());
	}
	if (o.destructive)
		notice(quiet, "allowing destructive actions");
	install_handlers();
	// Their mappings while they are held (and again at each switchrate
	// below): what they trace may be printed after they have exited.
	for (pid_t pid : ps.live_pids())
		cons.note_process(pid);
	ps.release();

	// What BEGIN traced is consumed at once, as dtrace_work() does on its
	// first call, before the first sleep.
	eng->drain(cons);
	std::fflush(out);

	bool done = false;
	while (!done) {
		if (g_intr == 0)
			eng->wait(std::chrono::nanoseconds(switchrate));
		if (g_newline) {
			std::fputs("\n", out);
			g_newline = 0;
		}
		bool procs_gone = false;
		if (!ps.empty()) {
			for (pid_t pid : ps.live_pids())
				cons.note_process(pid);
			for (const std::string &n : ps.poll())
				notice(quiet, n);
			procs_gone = ps.live() == 0;
		}
		if (g_intr != 0 || procs_gone || eng->exiting() || cons.exit_status()) {
			done = true;
			eng->stop();
		}
		if (g_intr > 1)
			break; // impatient: abandon what is left
		eng->drain(cons);
		std::fflush(out);
		if (cons.exit_status())
			done = true;
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
