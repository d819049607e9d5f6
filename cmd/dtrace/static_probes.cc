// SPDX-License-Identifier: MIT
//
// dtrace -h and dtrace -G: a program's own USDT probes from a provider
// definition (provider p { probe q(int); };).
//
//   -h  writes the C header (dt::compiler::provider_header()): one macro
//       per probe that places a stapsdt note, and its _ENABLED() test.
//       Output: -o FILE, else the script's name with .h for .d.
//   -G  for builds written for DTrace's flow (cc -c; dtrace -G -s p.d
//       a.o b.o [-o p.o]; cc a.o b.o p.o): the objects' calls of
//       __dtrace_p___q() become probe sites with stapsdt notes, and p.o
//       defines the semaphores and __dtraceenabled_p___q()
//       (usdt_link.cc says how and why). A -G of a D program (no
//       provider definition) compiles it and writes its record. The
//       object is passed through the linker (-x ldpath, "ld" by default)
//       with -r, as illumos links its DOF object; -x linktype=dof writes
//       the record alone instead, -x strip leaves out its comment and
//       system name. Output: -o FILE; else, as illumos' link_prog(), the
//       script's name with .o for .d, else d.out (-n, -s) or dtrace.out.
//
#include "static_probes.hpp"

#include "run.hpp"
#include "usdt_link.hpp"

#include <dtrace/compiler.hpp>

#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace dt::cli {
namespace {

void message(const std::string &m)
{
	std::fprintf(stderr, "dtrace: %s\n", m.c_str());
}

// The one -s script (-h and -G read a provider definition from a file).
const command *script_of(const options &o, const char *mode)
{
	const command *s = nullptr;
	for (const command &c : o.commands) {
		if (c.opt != 's') {
			message(std::string("-") + mode +
				" reads provider definitions from -s "
				"scripts only; -" +
				c.opt + " is not one");
			return nullptr;
		}
		s = &c;
	}
	if (s == nullptr)
		message(std::string("-") + mode + " requires a provider definition (-s script.d)");
	return s;
}

std::string replace_ext(const std::string &path, const char *ext)
{
	std::string base = path.substr(path.find_last_of('/') + 1);
	if (base.size() > 2 && base.ends_with(".d"))
		base.resize(base.size() - 2);
	return base + ext;
}

bool read_file(const std::string &path, std::string &out)
{
	std::ifstream in(path);
	if (!in) {
		message("failed to open " + path + ": " + std::strerror(errno));
		return false;
	}
	std::ostringstream ss;
	ss << in.rdbuf();
	out = ss.str();
	return true;
}

// "p.h" -> "_P_H"
std::string guard_of(const std::string &out)
{
	std::string g = "_";
	std::string base = out.substr(out.find_last_of('/') + 1);
	for (char c : base)
		g += std::isalnum(static_cast<unsigned char>(c))
			     ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
			     : '_';
	return g;
}

// The header for `script`, or false after a message ("[D_TAG] " first
// under -x errtags, as for any compile error).
bool header_for(const options &o, const std::string &script, const std::string &out,
		std::string &text)
{
	bool errtags = false;
	for (const auto &x : o.xopts)
		errtags = errtags || x.name == "errtags";
	std::string src;
	if (!read_file(script, src))
		return false;
	try {
		text = dt::compiler::provider_header(src, script, guard_of(out));
	} catch (const dt::compiler::compile_error &e) {
		std::string tag = errtags ? "[" + e.diag().tag + "] " : "";
		message("failed to compile script " + script + ": " + tag + e.what());
		return false;
	}
	return true;
}

} // namespace

int header_main(const options &o)
{
	const command *s = script_of(o, "h");
	if (s == nullptr)
		return E_USAGE;
	std::string out = o.outfile.empty() ? replace_ext(s->arg, ".h") : o.outfile;
	std::string text;
	if (!header_for(o, s->arg, out, text))
		return E_ERROR;
	std::ofstream f(out, std::ios::trunc);
	if (!(f << text) || !f.flush()) {
		message("failed to write " + out + ": " + std::strerror(errno));
		return E_ERROR;
	}
	return E_SUCCESS;
}

namespace {

// The last -x NAME=VALUE given ("" if none; "1" for a bare -x NAME).
std::string xopt_value(const options &o, const char *name)
{
	std::string v;
	for (const xopt &x : o.xopts)
		if (x.name == name)
			v = x.has_value ? x.value : "1";
	return v;
}

// Run `ld -o out -r in` as illumos' dtrace_program_link() runs it (through
// the shell, with -x ldpath); false with DTrace's message.
bool run_linker(const std::string &ld, const std::string &out, const std::string &in,
		std::string &why)
{
	auto quote = [](const std::string &s) {
		std::string q = "'";
		for (char c : s)
			q += c == '\'' ? std::string("'\\''") : std::string(1, c);
		return q + "'";
	};
	std::string cmd = ld + " -o " + quote(out) + " -r " + quote(in);
	std::fflush(nullptr);
	int status = std::system(cmd.c_str());
	if (status == -1) {
		why = "failed to run " + ld + ": " + std::strerror(errno);
		return false;
	}
	if (WIFSIGNALED(status)) {
		why = "failed to link " + out + ": " + ld + " failed due to signal " +
		      std::to_string(WTERMSIG(status));
		return false;
	}
	if (WEXITSTATUS(status) != 0) {
		why = "failed to link " + out + ": " + ld + " exited with status " +
		      std::to_string(WEXITSTATUS(status));
		return false;
	}
	return true;
}

} // namespace

int link_main(const options &o, const char *argv0, const char *version)
{
	if (o.commands.empty()) {
		message("-G requires one or more scripts or enabling options");
		return E_USAGE;
	}
	bool errtags = !xopt_value(o, "errtags").empty();
	provider_defs defs;
	link_record rec;
	rec.comment = std::string("dtrace: ") + version;
	rec.strip = !xopt_value(o, "strip").empty();
	options program = o; // the D program pieces, compiled as -e would
	program.commands.clear();
	for (const command &c : o.commands) {
		std::string src = c.arg;
		if (c.opt == 's') {
			if (!read_file(c.arg, src))
				return E_ERROR;
			try {
				provider_defs d = dt::compiler::provider_definitions(src, c.arg);
				if (!d.empty()) {
					defs.insert(defs.end(), d.begin(), d.end());
					rec.sources.emplace_back(c.arg, src);
					continue;
				}
			} catch (const dt::compiler::compile_error &e) {
				std::string tag = errtags ? "[" + e.diag().tag + "] " : "";
				message("failed to compile script " + c.arg + ": " + tag +
					e.what());
				return E_ERROR;
			}
		}
		program.commands.push_back({c.opt, c.arg, src});
		rec.sources.emplace_back(c.opt == 's' ? c.arg : std::string("-") + c.opt, src);
	}
	if (!program.commands.empty()) {
		program.compile_only = true;
		program.zdefs = true; // illumos -G: DTRACE_C_ZDEFS
		program.show_dif = false;
		if (int st = run_program(program, argv0); st != E_SUCCESS)
			return st;
	}

	// Names as illumos' link_prog(): its "script NAME" has lost the .d.
	const command &first = o.commands.front();
	std::string name = first.arg;
	if (name.ends_with(".d") && first.opt == 's')
		name.resize(name.size() - 2);
	std::string out = o.outfile;
	if (out.empty()) {
		if (o.commands.size() == 1 && first.opt == 's' && first.arg.ends_with(".d"))
			out = replace_ext(first.arg, ".o");
		else
			out = first.opt == 's' || first.opt == 'n' ? "d.out" : "dtrace.out";
	}
	auto failed = [&](const std::string &why) {
		message("failed to link " +
			std::string(first.opt == 's' ? "script " : "description ") + name + ": " +
			why);
		return E_ERROR;
	};

	std::string why;
	if (!rewrite_objects(defs, o.macro_args, why))
		return failed(why);
	std::string linktype = xopt_value(o, "linktype");
	if (strcasecmp(linktype.c_str(), "dof") == 0) {
		std::ofstream f(out, std::ios::trunc | std::ios::binary);
		if (!(f << record_bytes(rec)) || !f.flush())
			return failed("failed to write " + out + ": " + std::strerror(errno));
		return E_SUCCESS;
	}
	// -x linktype=elf (the default): our object, then through the linker.
	std::string tmp = out + ".XXXXXX";
	int fd = mkstemp(tmp.data());
	if (fd < 0)
		return failed("failed to create " + tmp + ": " + std::strerror(errno));
	close(fd);
	std::string ld = xopt_value(o, "ldpath");
	bool ok = write_link_object(tmp, defs, rec, why) &&
		  run_linker(ld.empty() ? "ld" : ld, out, tmp, why);
	unlink(tmp.c_str());
	return ok ? E_SUCCESS : failed(why);
}

} // namespace dt::cli
