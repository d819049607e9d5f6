// SPDX-License-Identifier: MIT
//
// dtrace(1): the command-line consumer.
//
//   parse options (options.cc) ─► grab -p processes ─► provider registry
//     ─► -l: list probes (list.cc)
//     ─► otherwise: compile and run the program (the compiler and the
//        engines are separate issues; until they land this says so)
//
// Exceptions from the library are caught here, at the boundary, and
// become "dtrace: ..." messages with DTrace's exit statuses.
#include "list.hpp"
#include "options.hpp"

#include <dtrace/provider.hpp>

#include <Poco/Exception.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

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

	for (int32_t pid : o.grab) {
		struct stat st {};
		std::string proc = "/proc/" + std::to_string(pid);
		if (stat(proc.c_str(), &st) != 0) {
			std::fprintf(stderr, "dtrace: failed to grab pid %d: %s\n", pid,
				     errno == ENOENT ? "No such process" : std::strerror(errno));
			return E_ERROR;
		}
	}

	FILE *out = stdout;
	if (!o.outfile.empty()) {
		out = std::fopen(o.outfile.c_str(), "a");
		if (out == nullptr) {
			std::fprintf(stderr, "dtrace: failed to open output file '%s': %s\n",
				     o.outfile.c_str(), std::strerror(errno));
			return E_ERROR;
		}
	}

	if (!o.list) {
		if (o.commands.empty()) {
			std::fprintf(stderr, "dtrace: no probes specified\n");
			return E_USAGE;
		}
		std::fprintf(stderr, "dtrace: failed to compile %s: the D compiler "
			     "is not part of this build yet; only -l is available\n",
			     o.commands.front().arg.c_str());
		return E_ERROR;
	}

	dt::provider_registry reg(dt::plugin_search_path(), o.grab,
				  [](const std::string &msg) {
					  std::fflush(stdout);
					  std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
				  });
	status = list_probes(o, reg, out);
	if (std::fflush(out) != 0 && status == E_SUCCESS) {
		std::fprintf(stderr, "dtrace: failed to write output: %s\n",
			     std::strerror(errno));
		status = E_ERROR;
	}
	if (out != stdout)
		std::fclose(out);
	return status;
}

} // namespace

int main(int argc, char **argv)
{
	try {
		return run(argc, argv);
	} catch (const Poco::Exception &e) {
		std::fprintf(stderr, "dtrace: %s\n", e.displayText().c_str());
	} catch (const std::exception &e) {
		std::fprintf(stderr, "dtrace: %s\n", e.what());
	}
	return E_ERROR;
}
