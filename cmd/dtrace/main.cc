// SPDX-License-Identifier: MIT
//
// dtrace(1): the command-line consumer.
//
//   parse options (options.cc)
//     ─► -l: grab -p processes ─► provider registry ─► list probes (list.cc)
//     ─► otherwise: compile, enable, trace and consume (run.cc)
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

#include <dtrace/provider.hpp>
#include <dtrace/session.hpp>

#include <Poco/Exception.h>


#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace dt::cli;

// The D language version this consumer implements (illumos dtrace -V).
constexpr const char *k_version = "Sun D 1.13";

int run(int argc, char **argv)
{
	options o;
	int status = E_SUCCESS;
	if (!parse_options(argc, argv, o, status))
		return status;

	if (o.version) {
		std::printf("dtrace: %s\n", k_version);
		return E_SUCCESS;
	}

	if (!o.list) {
		if (o.commands.empty()) {
			std::fprintf(stderr, "dtrace: no probes specified\n");
			return E_ERROR;
		}
		return run_program(o, argv[0]);
	}

	// -c commands are created (held at their entry point, as for
	// tracing) so that their probes can be listed; $target is the first
	// of them, else the first -p. illumos kills a created process it
	// still holds when dtrace closes: so does the session.
	dt::session_settings ss;
	ss.warn = [](const std::string &msg) {
		std::fflush(stdout);
		std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
	};
	dt::session s(std::move(ss));
	start_processes(o, s);
	options lo = o;
	lo.grab = s.processes();

	FILE *out = stdout;
	if (!o.outfile.empty()) {
		out = std::fopen(o.outfile.c_str(), "a");
		if (out == nullptr) {
			std::fprintf(stderr, "dtrace: failed to open output file '%s': %s\n",
				     o.outfile.c_str(), std::strerror(errno));
			return E_ERROR;
		}
	}

	status = list_probes(lo, s.registry(), out);
	if (std::fflush(out) != 0 && status == E_SUCCESS) {
		std::fprintf(stderr, "dtrace: failed to write output: %s\n", std::strerror(errno));
		status = E_ERROR;
	}
	if (out != stdout)
		std::fclose(out);
	return status;
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
