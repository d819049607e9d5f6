// SPDX-License-Identifier: MIT
//
// dtrace -h and dtrace -G: a program's own USDT probes from a provider
// definition (provider p { probe q(int); };).
//
//   -h  writes the C header (dt::compiler::provider_header()): one macro
//       per probe that places a stapsdt note, and its _ENABLED() test.
//       Output: -o FILE, else the script's name with .h for .d.
//   -G  for builds written for DTrace's flow (cc -c; dtrace -G -s p.d
//       a.o b.o -o p.o; cc a.o b.o p.o): on illumos it rewrites the
//       objects' probe calls and emits the object that registers them.
//       Here the header's macros already are the probes (notes the
//       kernel's uprobes find by themselves) and define their semaphores,
//       so the objects need nothing: -G checks the definition and writes
//       an empty relocatable object for the link. Output: -o FILE, else
//       the script's name with .o for .d.
#include "static_probes.hpp"

#include <dtrace/compiler.hpp>

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
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

// An empty ELF relocatable object for this machine, written with libelf:
// a section name table and an empty .note.GNU-stack (so the link keeps a
// non-executable stack).
bool write_empty_object(const std::string &path)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		message(std::string("libelf: ") + elf_errmsg(-1));
		return false;
	}
	int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		message("failed to open " + path + ": " + std::strerror(errno));
		return false;
	}
	bool ok = false;
	Elf *e = elf_begin(fd, ELF_C_WRITE, nullptr);
	static char names[] = "\0.shstrtab\0.note.GNU-stack";
	do {
		if (e == nullptr || gelf_newehdr(e, ELFCLASS64) == 0)
			break;
		GElf_Ehdr eh;
		if (gelf_getehdr(e, &eh) == nullptr)
			break;
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_type = ET_REL;
#if defined(__x86_64__)
		eh.e_machine = EM_X86_64;
#elif defined(__aarch64__)
		eh.e_machine = EM_AARCH64;
#endif
		eh.e_version = EV_CURRENT;
		Elf_Scn *strs = elf_newscn(e);
		Elf_Scn *stack = elf_newscn(e);
		if (strs == nullptr || stack == nullptr)
			break;
		Elf_Data *d = elf_newdata(strs);
		d->d_buf = names;
		d->d_size = sizeof(names);
		d->d_align = 1;
		GElf_Shdr sh;
		gelf_getshdr(strs, &sh);
		sh.sh_name = 1;
		sh.sh_type = SHT_STRTAB;
		gelf_update_shdr(strs, &sh);
		gelf_getshdr(stack, &sh);
		sh.sh_name = 11;
		sh.sh_type = SHT_PROGBITS;
		sh.sh_addralign = 1;
		gelf_update_shdr(stack, &sh);
		eh.e_shstrndx = static_cast<Elf64_Half>(elf_ndxscn(strs));
		gelf_update_ehdr(e, &eh);
		ok = elf_update(e, ELF_C_WRITE) >= 0;
	} while (false);
	if (!ok)
		message("failed to write " + path + ": " + elf_errmsg(-1));
	if (e != nullptr)
		elf_end(e);
	close(fd);
	return ok;
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

int link_main(const options &o)
{
	const command *s = script_of(o, "G");
	if (s == nullptr)
		return E_USAGE;
	std::string out = o.outfile.empty() ? replace_ext(s->arg, ".o") : o.outfile;
	std::string text;
	if (!header_for(o, s->arg, out, text))
		return E_ERROR;
	return write_empty_object(out) ? E_SUCCESS : E_ERROR;
}

} // namespace dt::cli
