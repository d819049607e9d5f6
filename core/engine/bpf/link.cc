// SPDX-License-Identifier: MIT
//
// link.cc - parse the BPF library object (ELF, clang -target bpf) with
// libelf and link the functions a translated program calls (link.hpp).
//
// Relocations handled (the only ones clang emits for the library's code):
//   R_BPF_64_32 on a call (src_reg BPF_PSEUDO_CALL): a BPF-to-BPF call;
//     the callee is text index sym.st_value / 8 + imm + 1 (section symbols
//     of static functions and function symbols alike, as libbpf computes);
//   R_BPF_64_64 on ld_imm64: a map, by the symbol's name (DT_BPF_MAP_*),
//     becomes src_reg BPF_PSEUDO_MAP_FD, imm = the runtime's fd.
// A call without relocation is pc-relative within its section.
#include "link.hpp"

#include "abi/dt_bpf_abi.h"

#include <elf.h>
#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>

#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10
#endif

namespace dt::engines::bpf {
namespace {

[[noreturn]] void fail(const std::string &why)
{
	throw translate_error("bpf engine: the BPF library: " + why);
}

bool is_call(const bpf_insn &i)
{
	return i.code == (BPF_JMP | BPF_CALL) && i.src_reg == BPF_PSEUDO_CALL;
}

bool is_ld_imm64(const bpf_insn &i)
{
	return i.code == (BPF_LD | BPF_DW | BPF_IMM);
}

struct elf_closer {
	Elf *e;
	~elf_closer() { elf_end(e); }
};

} // namespace

library library::parse(const unsigned char *data, size_t size)
{
	library lib;
	if (elf_version(EV_CURRENT) == EV_NONE)
		fail("libelf is unusable");
	std::vector<char> copy(data, data + size);
	Elf *e = elf_memory(copy.data(), copy.size());
	if (e == nullptr)
		fail(std::string("not an ELF object: ") + elf_errmsg(-1));
	elf_closer closer{e};
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		fail("no section names");

	// Executable sections: their base in the concatenated text.
	std::map<size_t, uint32_t> base; // section index -> text index
	Elf_Scn *symscn = nullptr;
	std::vector<Elf_Scn *> rels;
	for (Elf_Scn *s = elf_nextscn(e, nullptr); s != nullptr; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (gelf_getshdr(s, &sh) == nullptr)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symscn = s;
		else if (sh.sh_type == SHT_REL)
			rels.push_back(s);
		else if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) &&
			 sh.sh_size > 0) {
			Elf_Data *d = elf_getdata(s, nullptr);
			if (d == nullptr || d->d_size % sizeof(bpf_insn) != 0)
				fail("a code section has a partial instruction");
			base[elf_ndxscn(s)] = static_cast<uint32_t>(lib.text.size());
			const auto *p = static_cast<const bpf_insn *>(d->d_buf);
			lib.text.insert(lib.text.end(), p, p + d->d_size / sizeof(bpf_insn));
		}
	}
	if (symscn == nullptr) {
		if (lib.text.empty())
			return lib;
		fail("no symbol table");
	}
	GElf_Shdr symsh;
	gelf_getshdr(symscn, &symsh);
	Elf_Data *symd = elf_getdata(symscn, nullptr);
	size_t nsyms = symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize : 0;
	auto sym_at = [&](size_t k, GElf_Sym &out) {
		if (k >= nsyms || gelf_getsym(symd, static_cast<int>(k), &out) == nullptr)
			fail("bad symbol index");
	};
	auto sym_name = [&](const GElf_Sym &s) -> std::string {
		const char *n = elf_strptr(e, symsh.sh_link, s.st_name);
		return n ? n : "";
	};

	for (size_t k = 0; k < nsyms; k++) {
		GElf_Sym s;
		sym_at(k, s);
		if (GELF_ST_TYPE(s.st_info) != STT_FUNC)
			continue;
		auto b = base.find(s.st_shndx);
		if (b == base.end())
			continue;
		if (s.st_value % sizeof(bpf_insn) != 0 || s.st_size % sizeof(bpf_insn) != 0)
			fail("function " + sym_name(s) + " is not instruction-aligned");
		lib.funcs.push_back(
			{sym_name(s),
			 b->second + static_cast<uint32_t>(s.st_value / sizeof(bpf_insn)),
			 static_cast<uint32_t>(s.st_size / sizeof(bpf_insn))});
	}
	std::sort(lib.funcs.begin(), lib.funcs.end(),
		  [](const function &x, const function &y) { return x.start < y.start; });

	for (Elf_Scn *rs : rels) {
		GElf_Shdr sh;
		gelf_getshdr(rs, &sh);
		auto b = base.find(sh.sh_info);
		if (b == base.end())
			continue; // relocations of data or debug sections
		Elf_Data *d = elf_getdata(rs, nullptr);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t k = 0; k < n; k++) {
			GElf_Rel r;
			if (gelf_getrel(d, static_cast<int>(k), &r) == nullptr)
				fail("bad relocation");
			GElf_Sym s;
			sym_at(GELF_R_SYM(r.r_info), s);
			reloc rl;
			rl.type = static_cast<uint32_t>(GELF_R_TYPE(r.r_info));
			rl.sym = GELF_ST_TYPE(s.st_info) == STT_SECTION ? "" : sym_name(s);
			auto sb = base.find(s.st_shndx);
			if (sb != base.end()) {
				rl.sym_is_text = true;
				rl.sym_index = sb->second +
					       static_cast<uint32_t>(s.st_value / sizeof(bpf_insn));
			} else if (rl.sym.empty()) {
				GElf_Shdr ss;
				Elf_Scn *scn = elf_getscn(e, s.st_shndx);
				const char *sn = scn && gelf_getshdr(scn, &ss)
							 ? elf_strptr(e, shstrndx, ss.sh_name)
							 : nullptr;
				rl.sym = std::string("section ") + (sn ? sn : "?");
			}
			lib.relocs[b->second +
				   static_cast<uint32_t>(r.r_offset / sizeof(bpf_insn))] = rl;
		}
	}
	return lib;
}

const library::function *library::find(const std::string &name) const
{
	for (const function &f : funcs)
		if (f.name == name)
			return &f;
	return nullptr;
}

const library::function *library::containing(uint32_t idx) const
{
	for (const function &f : funcs)
		if (idx >= f.start && idx < f.start + f.len)
			return &f;
	return nullptr;
}

const library &embedded_library()
{
	static std::once_flag once;
	static library lib;
	static std::string error;
	std::call_once(once, [] {
		if (dt_bpf_lib_object_size == 0)
			return; // empty: link() says what is missing
		try {
			lib = library::parse(dt_bpf_lib_object, dt_bpf_lib_object_size);
		} catch (const translate_error &e) {
			error = e.what();
		}
	});
	if (!error.empty())
		throw translate_error(error);
	return lib;
}

link_result link(asm_buf &a, const library &lib, const map_fds &fds)
{
	const uint32_t lib_base = a.pc();
	link_result res;
	res.lib_start = lib_base;
	std::map<const library::function *, uint32_t> placed; // -> new start
	std::deque<const library::function *> todo;
	uint32_t next = lib_base;
	auto need = [&](const library::function *f) {
		if (placed.count(f) == 0) {
			placed[f] = next;
			next += f->len;
			todo.push_back(f);
		}
	};
	for (const call_fixup &c : a.calls) {
		if (c.sym.empty())
			continue;
		const library::function *f = lib.find(c.sym);
		if (f == nullptr) {
			if (lib.funcs.empty())
				throw translate_error(
					"bpf engine: the BPF library was not built (clang "
					"-target bpf was missing at build time): " +
					c.sym + "() is unavailable");
			throw translate_error("bpf engine: the BPF library has no " + c.sym + "()");
		}
		need(f);
	}

	struct mapname {
		const char *name;
		int fd;
	};
	const mapname maps[] = {
		{DT_BPF_MAP_MEM, fds.mem},	     {DT_BPF_MAP_STATUS, fds.status},
		{DT_BPF_MAP_CPUSTATE, fds.cpustate}, {DT_BPF_MAP_RING, fds.ring},
		{DT_BPF_MAP_PROBES, fds.probes},     {DT_BPF_MAP_STRTAB, fds.strtab},
		{DT_BPF_MAP_GLOBALS, fds.globals},   {DT_BPF_MAP_TLS, fds.tls},
		{DT_BPF_MAP_DVARS, fds.dvars},	     {DT_BPF_MAP_SPEC, fds.spec},
	};

	std::vector<bpf_insn> out;
	while (!todo.empty()) {
		const library::function *f = todo.front();
		todo.pop_front();
		uint32_t at = placed[f];
		for (uint32_t k = 0; k < f->len; k++) {
			uint32_t idx = f->start + k;
			bpf_insn in = lib.text[idx];
			auto r = lib.relocs.find(idx);
			if (is_call(in)) {
				uint32_t target;
				if (r != lib.relocs.end()) {
					if (r->second.type != R_BPF_64_32 || !r->second.sym_is_text)
						throw translate_error(
							"bpf engine: the BPF library calls " +
							r->second.sym +
							"(), which is not a library function");
					target = static_cast<uint32_t>(
						static_cast<int64_t>(r->second.sym_index) + in.imm +
						1);
				} else {
					target = static_cast<uint32_t>(static_cast<int64_t>(idx) +
								       in.imm + 1);
				}
				const library::function *callee = lib.containing(target);
				if (callee == nullptr || callee->start != target)
					fail("a call in " + f->name + " has no function target");
				need(callee);
				in.imm = static_cast<int32_t>(static_cast<int64_t>(placed[callee]) -
							      (static_cast<int64_t>(at + k) + 1));
			} else if (r != lib.relocs.end() && is_ld_imm64(in) &&
				   r->second.type == R_BPF_64_64 && r->second.sym_is_text) {
				// A callback's address (bpf_loop): BPF_PSEUDO_FUNC,
				// the target as libbpf computes it (st_value + imm).
				if (in.imm % static_cast<int32_t>(sizeof(bpf_insn)) != 0)
					fail("a callback address in " + f->name + " is misaligned");
				uint32_t target =
					r->second.sym_index +
					static_cast<uint32_t>(
						in.imm / static_cast<int32_t>(sizeof(bpf_insn)));
				const library::function *callee = lib.containing(target);
				if (callee == nullptr || callee->start != target)
					fail("a callback in " + f->name + " is not a function");
				need(callee);
				in.src_reg = BPF_PSEUDO_FUNC;
				in.imm = static_cast<int32_t>(static_cast<int64_t>(placed[callee]) -
							      (static_cast<int64_t>(at + k) + 1));
				res.callbacks = true;
			} else if (r != lib.relocs.end()) {
				if (!is_ld_imm64(in) || r->second.type != R_BPF_64_64)
					fail("unsupported relocation in " + f->name + " (type " +
					     std::to_string(r->second.type) + ")");
				int fd = -2;
				for (const mapname &m : maps)
					if (r->second.sym == m.name)
						fd = m.fd;
				if (fd == -2)
					fail(f->name + " refers to " + r->second.sym +
					     ", which is not one of the engine's maps "
					     "(only maps may be referenced: no .data/.rodata)");
				if (fd < 0)
					fail("map " + r->second.sym + " was not created");
				in.src_reg = BPF_PSEUDO_MAP_FD;
				in.imm = fd;
			}
			out.push_back(in);
		}
	}
	a.code.insert(a.code.end(), out.begin(), out.end());

	res.func_starts.push_back(0);
	for (const call_fixup &c : a.calls) {
		uint32_t target = c.sym.empty() ? a.label_pc(c.label) : placed[lib.find(c.sym)];
		a.code[c.insn].imm = static_cast<int32_t>(static_cast<int64_t>(target) -
							  (static_cast<int64_t>(c.insn) + 1));
		if (c.sym.empty())
			res.func_starts.push_back(target);
	}
	for (auto &[f, at] : placed)
		res.func_starts.push_back(at);
	std::sort(res.func_starts.begin(), res.func_starts.end());
	res.func_starts.erase(std::unique(res.func_starts.begin(), res.func_starts.end()),
			      res.func_starts.end());
	return res;
}

} // namespace dt::engines::bpf
