// SPDX-License-Identifier: MIT
// dtrace(1) option parsing.
//
// POSIX getopt(3) is the library that fits: dtrace's options are
// order-sensitive (each -P/-m/-f/-n/-i/-s adds a program piece in turn),
// combine as in "-qn", and must give getopt's own diagnostics
// ("illegal option -- k"); Poco::Util's option processor neither keeps
// that order with repeated options nor prints DTrace's messages.
#include "options.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dt::cli {

void print_usage(const char *pname)
{
	std::fprintf(stderr,
		     "Usage: %s [-32|-64] [-aACeFGhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n"
		     "\t[-I path] [-L path] [-o output] [-p pid] [-s script] [-U name]\n"
		     "\t[-x opt[=val]] [-X a|c|s|t]\n\n"
		     "\t[-P provider [[ predicate ] action ]]\n"
		     "\t[-m [ provider: ] module [[ predicate ] action ]]\n"
		     "\t[-f [[ provider: ] module: ] func [[ predicate ] action ]]\n"
		     "\t[-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
		     "\t[-i probe-id [[ predicate ] action ]] [ args ... ]\n\n"
		     "\tpredicate -> '/' D-expression '/'\n"
		     "\t   action -> '{' D-statements '}'\n\n"
		     "\t-32 generate 32-bit D programs and ELF files\n"
		     "\t-64 generate 64-bit D programs and ELF files\n\n"
		     "\t-a  claim anonymous tracing state\n"
		     "\t-A  generate driver.conf(4) directives for anonymous tracing\n"
		     "\t-b  set trace buffer size\n"
		     "\t-c  run specified command and exit upon its completion\n"
		     "\t-C  run cpp(1) preprocessor on script files\n"
		     "\t-D  define symbol when invoking preprocessor\n"
		     "\t-e  exit after compiling request but prior to enabling probes\n"
		     "\t-f  enable or list probes matching the specified function name\n"
		     "\t-F  coalesce trace output by function\n"
		     "\t-G  generate an ELF file containing embedded dtrace program\n"
		     "\t-h  generate a header file with definitions for static probes\n"
		     "\t-H  print included files when invoking preprocessor\n"
		     "\t-i  enable or list probes matching the specified probe id\n"
		     "\t-I  add include directory to preprocessor search path\n"
		     "\t-l  list probes matching specified criteria\n"
		     "\t-L  add library directory to library search path\n"
		     "\t-m  enable or list probes matching the specified module name\n"
		     "\t-n  enable or list probes matching the specified probe name\n"
		     "\t-o  set output file\n"
		     "\t-p  grab specified process-ID and cache its symbol tables\n"
		     "\t-P  enable or list probes matching the specified provider name\n"
		     "\t-q  set quiet mode (only output explicitly traced data)\n"
		     "\t-s  enable or list probes according to the specified D script\n"
		     "\t-S  print D compiler intermediate code\n"
		     "\t-U  undefine symbol when invoking preprocessor\n"
		     "\t-v  set verbose mode (report stability attributes, arguments)\n"
		     "\t-V  report DTrace API version\n"
		     "\t-w  permit destructive actions\n"
		     "\t-x  enable or modify compiler and tracing options\n"
		     "\t-X  specify ISO C conformance settings for preprocessor\n"
		     "\t-Z  permit probe descriptions that match zero probes\n",
		     pname);
}

bool parse_options(int argc, char **argv, options &o, int &status)
{
	const char *pname = "dtrace";
	if (argc <= 1) {
		print_usage(pname);
		status = E_USAGE;
		return false;
	}
	// illumos DTRACE_OPTSTR; '+' keeps GNU getopt from permuting, so
	// operands after the program stay $1, $2 ... in order.
	static const char optstr[] = "+3:6:aAb:Bc:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z";
	opterr = 0;
	int c;
	int modes = 0; // -A, -G, -l and -V each select a mode of their own
	while (optind < argc) {
		c = getopt(argc, argv, optstr);
		if (c == -1) {
			// An operand: a macro argument; keep scanning options.
			o.macro_args.emplace_back(argv[optind++]);
			continue;
		}
		switch (c) {
		case '3':
		case '6':
			if (std::strcmp(optarg, c == '3' ? "2" : "4") != 0) {
				std::fprintf(stderr, "%s: illegal option -- %c%s\n", pname, c,
					     optarg);
				print_usage(pname);
				status = E_USAGE;
				return false;
			}
			break;
		case 'P':
		case 'm':
		case 'f':
		case 'n':
		case 'i':
		case 's': o.commands.push_back({static_cast<char>(c), optarg, ""}); break;
		case 'l':
			o.list = true;
			modes++;
			break;
		case 'v': o.verbose = true; break;
		case 'q': o.quiet = true; break;
		case 'V':
			o.version = true;
			modes++;
			break;
		case 'Z': o.zdefs = true; break;
		case 'w': o.destructive = true; break;
		case 'e': o.compile_only = true; break;
		case 'S': o.show_dif = true; break;
		case 'C': o.cpp = true; break;
		case 'o': o.outfile = optarg; break;
		case 'D': o.cpp_args.push_back(std::string("-D") + optarg); break;
		case 'U': o.cpp_args.push_back(std::string("-U") + optarg); break;
		case 'I': o.cpp_args.push_back(std::string("-I") + optarg); break;
		case 'c': o.run.emplace_back(optarg); break;
		case 'b':
			o.xopts.push_back({"-b", optarg}); // bufsize, as run.cc words errors
			break;
		case 'x': {
			std::string s(optarg);
			auto eq = s.find('=');
			if (eq == std::string::npos)
				o.xopts.push_back({s, "", false});
			else
				o.xopts.push_back({s.substr(0, eq), s.substr(eq + 1)});
			// illumos dt_opt_cpp_opts() and dt_opt_cflags(): these
			// options are -D, -U, -I and -Z spelt as -x.
			const auto &[name, value, has_value] = o.xopts.back();
			if (name == "define" || name == "undef" || name == "incdir")
				o.cpp_args.push_back((name == "define"	? "-D"
						      : name == "undef" ? "-U"
									: "-I") +
						     value);
			else if (name == "zdefs")
				o.zdefs = true;
			else if (name == "verbose") // DTRACE_C_DIFV, as -S
				o.show_dif = true;
			else if (name == "core")
				o.core = true;
			else if (name == "engines")
				o.engines = true;
			break;
		}
		case 'p': {
			char *end = nullptr;
			errno = 0;
			long pid = std::strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' || pid <= 0 ||
			    pid > INT32_MAX) {
				std::fprintf(stderr, "%s: invalid process ID: %s\n", pname, optarg);
				status = E_USAGE;
				return false;
			}
			o.grab.push_back(static_cast<int32_t>(pid));
			break;
		}
		case 'X': o.xopts.push_back({"stdc", optarg}); break; // dtrace.c: -X is -x stdc
		case 'a':
		case 'A':
		case 'B':
		case 'F':
		case 'G':
		case 'h':
		case 'H':
		case 'L':
			if (c == 'A' || c == 'G')
				modes++;
			// Accepted for compatibility; the modes they select are
			// refused by main() with a message naming the option.
			o.xopts.push_back({std::string("-") + static_cast<char>(c),
					   c == 'L' ? optarg : "", c == 'L'});
			break;
		case ':':
		case '?':
		default:
			if (std::strchr(optstr, optopt) != nullptr)
				std::fprintf(stderr, "%s: option requires an argument -- %c\n",
					     pname, optopt);
			else
				std::fprintf(stderr, "%s: illegal option -- %c\n", pname, optopt);
			print_usage(pname);
			status = E_USAGE;
			return false;
		}
	}
	// illumos dtrace.c main(), after its first pass over the options.
	if (modes > 1) {
		std::fprintf(stderr,
			     "%s: only one of the [-AGlV] options can be specified at a time\n",
			     pname);
		status = E_USAGE;
		return false;
	}
	return true;
}

} // namespace dt::cli
