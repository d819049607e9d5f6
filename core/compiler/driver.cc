// SPDX-License-Identifier: MIT
//
// compiler/driver.cc - dt::compiler::compile(): the passes, in order.
//
//   1. cpp (only with -C)   driver.cc         /usr/bin/cpp over the text
//   2. lex                  lex/lexer.cc      source -> tokens (pulled by 3)
//   3. parse                parse/parser.cc   tokens -> AST (parse/ast.hpp)
//   4. sema                 sema/sema.cc      AST -> typed tree + statement plans
//                           sema/expr_check.cc  expression typing
//                           sema/types.cc       the D type system
//                           sema/builtins.cc    variables, subroutines, actions
//   5. codegen              codegen/codegen.cc  -> DIF objects, records, layout
//                           codegen/dif_builder.cc  registers, labels, tables
//
// Diagnostics: diag.hpp (fail(), d_error) with the tags of diagnostics.def.
// D libraries (settings.libdirs, *.d) are parsed first, as scripts, and
// checked only when the program uses them (needed_libraries()).
//
// All inputs share one symbol table (variables, aggregations, types), as
// one dtrace invocation does. The first error stops everything: d_error
// from any pass becomes compile_error here, with the file, and "line N"
// only for scripts (illumos dt_set_errmsg: -n specifiers get a region,
// "in action list: ", instead).
#include <dtrace/compiler.hpp>
#include <dtrace/options.hpp>
#include <dtrace/provider.hpp>

#include "btf/kernel_types.hpp"
#include "codegen/codegen.hpp"
#include "cpu_topology.hpp"
#include "diag.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

extern char **environ;

namespace dt::compiler {

const char *tag_name(tag t)
{
	static const char *const names[] = {
#define X(n) #n,
#include "diagnostics.def"
#undef X
	};
	return names[static_cast<size_t>(t)];
}

std::optional<tag> tag_from_name(std::string_view name)
{
#define X(n)            \
	if (name == #n) \
		return tag::n;
#include "diagnostics.def"
#undef X
	return std::nullopt;
}

namespace {

std::string format_diag(const diagnostic &d)
{
	if (d.line != 0)
		return "line " + std::to_string(d.line) + ": " + d.message;
	if (!d.region.empty())
		return "in " + d.region + ": " + d.message;
	return d.message;
}

// Run the C preprocessor (-C) over text.
std::string preprocess(const std::string &text, const settings &s)
{
	namespace fs = std::filesystem;
	// $TMPDIR where set (a read-only /tmp, as in the VM tier's guest).
	const char *tmpdir = std::getenv("TMPDIR");
	std::string tmpl =
		std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/dtrace-cpp-in-XXXXXX";
	std::vector<char> in_buf(tmpl.begin(), tmpl.end());
	in_buf.push_back('\0');
	char *in_tmpl = in_buf.data();
	int fd = mkstemp(in_tmpl);
	if (fd < 0)
		throw d_error(tag::EDT_CPPERR, 0, "Preprocessor failed to process input program");
	{
		FILE *f = fdopen(fd, "w");
		fwrite(text.data(), 1, text.size(), f);
		fclose(f);
	}
	std::string out_path = std::string(in_tmpl) + ".out";
	// -x cpppath names the preprocessor (illumos dt_opt_cpp_path()); the
	// definitions come first, as in illumos' dt_cpp_argv.
	auto cpppath = s.options.find("cpppath");
	std::vector<std::string> argv = {cpppath != s.options.end() ? cpppath->second
								    : "/usr/bin/cpp",
					 "-D__linux__",
					 "-D__SUNW_D=1",
					 "-D__SUNW_D_VERSION=0x01010000",
					 "-undef",
					 "-xc"};
#if defined(__x86_64__)
	argv.emplace_back("-D__x86_64__");
	argv.emplace_back("-D__amd64");
	argv.emplace_back("-D_LP64");
#elif defined(__aarch64__)
	argv.emplace_back("-D__aarch64__");
	argv.emplace_back("-D_LP64");
#endif
	// cpp's own messages are passed through as illumos' are: the program
	// is cpp's standard input, named /dev/stdin, lines without columns.
	argv.emplace_back("-fno-show-column");
	argv.emplace_back("-fno-diagnostics-show-caret");
	argv.emplace_back("-fdiagnostics-color=never");
	// illumos dt_preproc(): -X a and t define __STDC__ as 0, c as 1 (cpp's
	// own), s leaves it undefined. cpp warns when it is undefined: -w.
	if (auto it = s.options.find("stdc"); it != s.options.end() && it->second != "c") {
		argv.emplace_back("-w");
		argv.emplace_back("-U__STDC__");
		if (it->second != "s")
			argv.emplace_back("-D__STDC__=0");
	}
	for (const auto &a : s.cpp_args)
		argv.push_back(a);
	if (s.options.count("cpphdrs") != 0) // -H: the included files, on stderr
		argv.emplace_back("-H");
	// A system without the /dev/stdin link (a bare devtmpfs, as in a
	// minimal guest) gets the temporary file's own name instead.
	argv.emplace_back(access("/dev/stdin", R_OK) == 0 ? "/dev/stdin" : in_tmpl);
	argv.emplace_back("-o");
	argv.push_back(out_path);
	std::vector<char *> cargv;
	for (auto &a : argv)
		cargv.push_back(a.data());
	cargv.push_back(nullptr);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, in_tmpl, O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	// argv[0] is the program's base name (its messages start with it).
	std::string path = argv[0];
	std::string base = std::filesystem::path(path).filename().string();
	cargv[0] = base.data();
	int rc = posix_spawn(&pid, path.c_str(), &fa, nullptr, cargv.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	int status = 0;
	if (rc == 0)
		waitpid(pid, &status, 0);
	fs::remove(in_tmpl);
	if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fs::remove(out_path);
		throw d_error(tag::EDT_CPPERR, 0, "Preprocessor failed to process input program");
	}
	std::ifstream in(out_path);
	std::stringstream ss;
	ss << in.rdbuf();
	fs::remove(out_path);
	return ss.str();
}

macro_values make_macros(const settings &s, const std::map<std::string, std::string> &opts)
{
	macro_values m;
	m.args = s.macro_args;
	if (m.args.empty())
		m.args.emplace_back("dtrace");
	// $target is 0 unless -c or -p names a process (illumos _dtrace_macros).
	m.named["target"] = s.target ? std::to_string(*s.target) : "0";
	m.named["pid"] = std::to_string(getpid());
	m.named["ppid"] = std::to_string(getppid());
	m.named["pgid"] = std::to_string(getpgrp());
	m.named["sid"] = std::to_string(getsid(0));
	m.named["uid"] = std::to_string(getuid());
	m.named["gid"] = std::to_string(getgid());
	m.named["euid"] = std::to_string(geteuid());
	m.named["egid"] = std::to_string(getegid());
	std::error_code ec;
	m.named["cwd"] = std::filesystem::current_path(ec).string();
	m.defaultargs = opts.count("defaultargs") != 0;
	m.pspec = opts.count("pspec") != 0;
	return m;
}

// strsize shapes the string type; a pragma may set it before any clause.
// The -x value was checked by option_error(), a pragma's by the pattern.
uint32_t find_strsize(const std::vector<input> &inputs, const settings &s)
{
	auto strsize = [](const std::string &v) {
		return static_cast<uint32_t>(resolve_options({{"strsize", v}}).strsize);
	};
	auto it = s.options.find("strsize");
	if (it != s.options.end())
		return strsize(it->second);
	static const std::regex re(R"(#\s*pragma\s+D\s+option\s+strsize\s*=\s*([0-9]+[kKmM]?))");
	uint32_t v = static_cast<uint32_t>(resolve_options({}).strsize); // the default
	for (const auto &in : inputs) {
		std::smatch m;
		if (std::regex_search(in.text, m, re))
			v = strsize(m[1]);
	}
	return v;
}

// The words of a text that could be D identifiers (strings and comments
// included: a word too many only compiles a library more).
std::set<std::string> words_of(const std::string &text)
{
	std::set<std::string> out;
	auto head = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
	auto tail = [&](char c) { return head(c) || std::isdigit(static_cast<unsigned char>(c)); };
	for (size_t i = 0; i < text.size();) {
		if (!head(text[i]) || (i > 0 && tail(text[i - 1]))) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < text.size() && tail(text[j]))
			j++;
		out.emplace(text, i, j - i);
		i = j;
	}
	return out;
}

// The names a D library defines, by which a program uses it: typedef,
// variable and inline names, struct/union/enum tags, enumerators, and the
// output types of its translators.
std::set<std::string> names_defined(const translation_unit &u)
{
	std::set<std::string> out;
	auto spec = [&](const std::shared_ptr<decl_spec> &sp) {
		if (!sp)
			return;
		if (!sp->tag.empty())
			out.insert(sp->tag);
		for (const auto &e : sp->enumerators)
			out.insert(e.first);
	};
	for (const item &it : u.items) {
		if (it.decl) {
			spec(it.decl->spec);
			for (const declarator &d : it.decl->decls)
				out.insert(d.name);
		}
		if (it.inl) {
			spec(it.inl->spec);
			out.insert(it.inl->decl.name);
		}
		if (it.xl && it.xl->out.spec) {
			out.insert(it.xl->out.spec->typedef_name);
			out.insert(it.xl->out.spec->tag);
		}
	}
	out.erase("");
	return out;
}

// Which D libraries (the first n_libs of `all`, in order) a program needs:
// those defining a name the program's text uses, and what those use in
// turn (a library uses only those before it: name order, as illumos'
// dt_load_libs_dir()). A program that reads args[] may meet any library's
// translated types through its probes' arguments (tcpsinfo_t, psinfo_t):
// it gets them all, as every program did before.
std::vector<bool> needed_libraries(const std::vector<input> &all, size_t n_libs,
				   const std::vector<std::set<std::string>> &defined)
{
	std::set<std::string> used;
	for (size_t i = n_libs; i < all.size(); i++) {
		std::set<std::string> w = words_of(all[i].text);
		used.insert(w.begin(), w.end());
	}
	std::vector<bool> need(n_libs, used.count("args") != 0);
	for (size_t i = n_libs; i-- > 0;) {
		need[i] =
			need[i] || std::any_of(defined[i].begin(), defined[i].end(),
					       [&](const std::string &n) { return used.count(n); });
		if (need[i]) {
			std::set<std::string> w = words_of(all[i].text);
			used.insert(w.begin(), w.end());
		}
	}
	return need;
}
} // namespace

compile_error::compile_error(diagnostic d) : error(errc::compile, format_diag(d)), d_(std::move(d))
{
}

const char *compile_error::what() const noexcept
{
	return std::runtime_error::what();
}

program compile(const std::vector<input> &inputs, const settings &s)
{
	program prog;
	std::map<std::string, std::string> options = s.options;
	symbols syms(find_strsize(inputs, s));
	std::set<std::string> typedefs;
	std::vector<checked_clause> clauses;
	std::vector<std::unique_ptr<translation_unit>> units;
	// D libraries (-L dirs and the system D library dir): every *.d, in
	// name order, before the user's inputs (illumos dt_load_libs); they
	// declare types, inlines and translators.
	std::vector<input> all;
	size_t n_system = 0; // libraries from s.libdirs, checked where used
	std::vector<std::string> dirs = s.libdirs;
	dirs.insert(dirs.end(), s.user_libdirs.begin(), s.user_libdirs.end());
	// This machine's CPU topology (cpu_topology.hpp), before the system
	// libraries: sched.d's cpuinfo_t reads it.
	if (!s.libdirs.empty()) {
		input li;
		li.k = input::kind::script;
		li.text = cpu_topology_library("/sys");
		li.file = "cpu_topology.d";
		all.push_back(std::move(li));
	}
	for (size_t di = 0; di < dirs.size(); di++) {
		if (di == s.libdirs.size())
			n_system = all.size();
		const std::string &dir = dirs[di];
		std::error_code ec;
		std::vector<std::filesystem::path> files;
		for (const auto &e : std::filesystem::directory_iterator(dir, ec))
			if (e.path().extension() == ".d")
				files.push_back(e.path());
		std::sort(files.begin(), files.end());
		for (const auto &f : files) {
			std::ifstream lf(f);
			std::stringstream ss;
			ss << lf.rdbuf();
			input li;
			li.k = input::kind::script;
			li.text = ss.str();
			li.file = f.string();
			all.push_back(std::move(li));
		}
	}
	size_t n_libs = all.size();
	if (s.user_libdirs.empty())
		n_system = n_libs;
	all.insert(all.end(), inputs.begin(), inputs.end());
	// An error in a library names it as illumos' dt_filetag does.
	auto lib_diag = [&](diagnostic &d, size_t ai, uint32_t line) {
		d.message =
			"\"" + all[ai].file + "\", line " + std::to_string(line) + ": " + d.message;
		d.line = 0;
		d.region.clear();
	};
	// The libraries are parsed first, each after those before it (their
	// typedefs), then checked only where the program uses them: a
	// one-liner that names none of their types compiles no translator
	// and reads no kernel BTF (needed_libraries()).
	// cpp (-C), the $N macros, parse: one input's text to its tree.
	// Only the user's scripts go through cpp (illumos passes -C in the
	// flags of their compilation, not in the libraries').
	auto parse_text = [&](std::string &text, bool is_script, macro_values &macros,
			      bool is_lib = false) {
		if (s.cpp && is_script && !is_lib)
			text = preprocess(text, s);
		macros = make_macros(s, options);
		// A pragma in this very text must act before its $N are read.
		static const std::regex defargs(R"(#\s*pragma\s+D\s+option\s+defaultargs\b)");
		if (std::regex_search(text, defargs))
			macros.defaultargs = true;
		static const std::regex pspec(R"(#\s*pragma\s+D\s+option\s+pspec\b)");
		if (std::regex_search(text, pspec))
			macros.pspec = true;
		// Kernel typedefs (BTF) are types in D, as illumos' kernel CTF.
		extern_type_fn kernel_typedef = [&syms](const std::string &name) {
			return syms.types.kernel().find_typedef(name) != nullptr;
		};
		return std::make_unique<translation_unit>(
			parse(text, macros, typedefs, kernel_typedef, is_script));
	};
	std::vector<std::unique_ptr<translation_unit>> lib_units(n_libs);
	std::vector<std::set<std::string>> lib_names(n_libs);
	for (size_t ai = 0; ai < n_libs; ai++) {
		try {
			std::string text = all[ai].text;
			macro_values macros;
			lib_units[ai] = parse_text(text, true, macros, true);
			lib_names[ai] = names_defined(*lib_units[ai]);
		} catch (const d_error &e) {
			diagnostic d;
			d.tag = tag_name(e.which);
			d.file = all[ai].file;
			d.message = e.what();
			lib_diag(d, ai, e.line);
			throw compile_error(d);
		}
	}
	std::vector<bool> lib_needed = needed_libraries(all, n_libs, lib_names);
	for (size_t ai = n_system; ai < n_libs; ai++)
		lib_needed[ai] = true;
	std::vector<checked_clause> lib_clauses; // checked, then dropped
	for (size_t ai = 0; ai < all.size(); ai++) {
		if (ai < n_libs && !lib_needed[ai])
			continue;
		const input &in = all[ai];
		bool is_script = in.k == input::kind::script;
		try {
			sema_ctx ctx{syms, s, options};
			switch (in.k) {
			case input::kind::provider: ctx.dkind = desc_kind::provider; break;
			case input::kind::module: ctx.dkind = desc_kind::mod; break;
			case input::kind::function: ctx.dkind = desc_kind::func; break;
			default: ctx.dkind = desc_kind::name; break;
			}
			std::string text = in.text;
			if (in.k == input::kind::id && s.registry) {
				// -i: as illumos lexes it in a probe description,
				// leading digits are a probe id (that probe's
				// description) and what follows is read on: a
				// predicate or actions, or more descriptions ("-i
				// 2-2" is probe 2 and the description "-2"). No
				// digits: a description, as -n.
				size_t b = text.find_first_not_of(" \t\n");
				size_t e = b == std::string::npos
						   ? b
						   : text.find_first_not_of("0123456789", b);
				if (b != std::string::npos && e != b) {
					std::string digits = text.substr(b, e - b);
					std::string rest =
						e == std::string::npos ? "" : text.substr(e);
					unsigned long id =
						std::strtoul(digits.c_str(), nullptr, 10);
					const probe *found = nullptr;
					for (const probe *p : s.registry->all())
						if (p->id == id)
							found = p;
					if (!found && !s.zero_ok)
						throw d_error(tag::D_PDESC_ZERO, 0,
							      "probe description " + digits +
								      " does not match any probes");
					if (!found)
						continue;
					size_t r = rest.find_first_not_of(" \t\n");
					bool more = r != std::string::npos &&
						    std::string("{/;,").find(rest[r]) ==
							    std::string::npos;
					text = found->desc.str() + (more ? "," : "") + rest;
				}
			}
			macro_values macros;
			std::unique_ptr<translation_unit> u;
			if (ai < n_libs)
				u = std::move(lib_units[ai]);
			else
				try {
					u = parse_text(text, is_script, macros);
				} catch (const parse_error &pe) {
					// What illumos acted on before the error, in
					// order: an error there is the one reported.
					translation_unit before;
					for (item &i : pe.before->items)
						if (i.k != item::kind::clause)
							before.items.push_back(std::move(i));
					std::vector<checked_clause> none;
					check_unit(ctx, before, none, options);
					throw d_error(pe);
				}
			// illumos dt_compile(): the last operand must be used (unless
			// -x argref); raised at the end of the text, as yylineno is.
			const size_t argc = macros.args.size();
			if (ai >= n_libs && argc > 1 && !options.count("argref") &&
			    !s.options.count("argref") &&
			    (macros.referenced.size() < argc || !macros.referenced[argc - 1]))
				throw d_error(
					tag::D_MACRO_UNUSED,
					static_cast<uint32_t>(
						std::count(text.begin(), text.end(), '\n') + 1),
					"extraneous argument '" + macros.args[argc - 1] + "' ($" +
						std::to_string(argc - 1) + " is not referenced)");
			// illumos dt_compile(): a script with no clause or
			// declaration is an error unless -x empty allows it.
			if (ai >= n_libs && is_script && !options.count("empty") &&
			    std::all_of(u->items.begin(), u->items.end(),
					[](const item &i) { return i.k == item::kind::pragma; }))
				throw d_error(
					tag::D_EMPTY,
					static_cast<uint32_t>(
						std::count(text.begin(), text.end(), '\n') + 1),
					"empty D program translation unit");
			ctx.library = ai < n_libs;
			check_unit(ctx, *u, ai < n_libs ? lib_clauses : clauses, options);
			units.push_back(std::move(u));
		} catch (const d_error &e) {
			// A library whose "#pragma D depends_on" is not met is
			// skipped (illumos dt_load_libs_dir).
			if (ai < n_libs && e.which == tag::D_PRAGMA_DEPEND)
				continue;
			diagnostic d;
			d.tag = tag_name(e.which);
			d.file = in.file;
			d.line = is_script ? e.line : 0;
			d.region = e.region;
			d.message = e.what();
			if (ai < n_libs)
				lib_diag(d, ai, e.line);
			throw compile_error(d);
		}
	}
	// The link mode the whole program is assembled under (illumos sets
	// dt_linkmode before dt_as() assembles each clause): the last word
	// given, by -x or #pragma; kdefs takes knodefs back.
	if (auto lm = options.find("linkmode"); lm != options.end())
		syms.linkmode = lm->second;
	syms.knodefs = options.count("knodefs") != 0 && options.count("kdefs") == 0;
	try {
		generate(syms, clauses, prog);
	} catch (const d_error &e) {
		diagnostic d;
		d.tag = tag_name(e.which);
		d.line = e.line;
		d.region = e.region;
		d.message = e.what();
		// Which input: the last script wins for line numbers.
		for (const auto &in : inputs)
			if (in.k != input::kind::script)
				d.line = 0;
		// An EDT_ error (illumos longjmp()s with an errno, not xyerror())
		// is its message alone: no line, no region.
		if (d.tag.rfind("EDT_", 0) == 0) {
			d.line = 0;
			d.region.clear();
		}
		throw compile_error(d);
	}
	prog.options = options;
	return prog;
}

} // namespace dt::compiler
