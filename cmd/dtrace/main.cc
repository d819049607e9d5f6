// SPDX-License-Identifier: MIT
//
// dtrace(1): the command-line consumer.
//
//   parse options (options.cc)
//     ─► -h / -G: a provider definition's USDT header / link object
//        (static_probes.cc)
//     ─► -l: list the probes the pieces match (list.cc)
//     ─► otherwise: compile, enable, trace and consume (run.cc)
//   both over libdtrace's session (dtrace/session.hpp), which does the work
//
// An interpreter file's "#!/usr/sbin/dtrace -q -s" line reaches us as one
// argument "-q -s" on Linux (illumos passes it the same way, but its
// scripts write "-qs"); such an argument is split at blanks when its last
// word is the -s option, so both spellings work.
//
// Exceptions from the library are caught here, at the boundary, and
// become "dtrace: ..." messages with DTrace's exit statuses.
#include "list.hpp"
#include "options.hpp"
#include "run.hpp"
#include "static_probes.hpp"

#include <dtrace/options.hpp>

#include <Poco/Exception.h>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace dt::cli;

// The D language version this consumer implements (illumos dtrace -V).
constexpr const char *k_version = "Sun D 1.13";

// -x core (illumos dt_opt_core(), a debugging aid): at exit, say so and
// abort() with no limit on the core file's size.
void force_core()
{
	static const char msg[] = "libdtrace DEBUG: [ forcing coredump ]\n";
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	struct sigaction act {};
	act.sa_handler = SIG_DFL;
	sigemptyset(&act.sa_mask);
	sigaction(SIGABRT, &act, nullptr);
	struct rlimit lim {
		RLIM_INFINITY, RLIM_INFINITY
	};
	setrlimit(RLIMIT_CORE, &lim);
	std::abort();
}

int run(int argc, char **argv)
{
	options o;
	int status = E_SUCCESS;
	if (!parse_options(argc, argv, o, status))
		return status;
	if (o.core)
		std::atexit(force_core);

	if (o.version) {
		std::printf("dtrace: %s\n", k_version);
		return E_SUCCESS;
	}

	// As illumos main(): every -x option is set before the mode runs, so
	// -h and -G refuse a bad one too (the other modes set them on their
	// session, run.cc).
	bool header_or_link = false;
	for (const auto &x : o.xopts)
		header_or_link = header_or_link || x.name == "-h" || x.name == "-G";
	for (const auto &[k, v, has_value] : o.xopts)
		if (const char *why = header_or_link && !k.starts_with("-")
					      ? dt::option_error(k, v, has_value)
					      : nullptr) {
			std::fprintf(stderr, "dtrace: failed to set -x %s: %s\n", k.c_str(), why);
			return E_ERROR;
		}
	for (const auto &x : o.xopts) {
		const std::string &k = x.name;
		if (k == "-h")
			return header_main(o);
		if (k == "-G")
			return link_main(o, argv[0], k_version);
	}
	dt::raise_fd_limit();
	if (o.list)
		return list_main(o, argv[0]);
	// -e with nothing to compile still checks the options, then exits
	// with 0 (illumos: DMODE_EXEC with no program, "done" at once).
	if (o.commands.empty() && !o.compile_only) {
		std::fprintf(stderr, "dtrace: no probes specified\n");
		return E_ERROR;
	}
	return run_program(o, argv[0]);
}

// "-q -s" from an interpreter line: split into "-q" "-s".
std::vector<char *> split_interpreter_args(int argc, char **argv, std::vector<std::string> &store)
{
	std::vector<char *> v(argv, argv + argc);
	if (argc < 3 || argv[1][0] != '-' || std::strpbrk(argv[1], " \t") == nullptr)
		return v;
	std::vector<std::string> words;
	std::string w;
	for (const char *p = argv[1];; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\0') {
			if (!w.empty())
				words.push_back(w);
			w.clear();
			if (*p == '\0')
				break;
		} else {
			w += *p;
		}
	}
	const std::string &last = words.back();
	if (last.size() < 2 || last[0] != '-' || last.back() != 's')
		return v;
	store = std::move(words);
	v.erase(v.begin() + 1);
	for (size_t i = 0; i < store.size(); i++)
		v.insert(v.begin() + 1 + static_cast<long>(i), store[i].data());
	return v;
}

} // namespace

int main(int argc, char **argv)
{
	try {
		std::vector<std::string> store;
		std::vector<char *> args = split_interpreter_args(argc, argv, store);
		args.push_back(nullptr);
		return run(static_cast<int>(args.size() - 1), args.data());
	} catch (const Poco::Exception &e) {
		std::fprintf(stderr, "dtrace: %s\n", e.displayText().c_str());
	} catch (const std::exception &e) {
		std::fprintf(stderr, "dtrace: %s\n", e.what());
	}
	return E_ERROR;
}
