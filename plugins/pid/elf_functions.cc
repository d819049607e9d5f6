// SPDX-License-Identifier: MIT
// Function symbols of an ELF object through libelf (see elf_functions.hpp).
#include "elf_functions.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <unordered_set>

namespace dt::plugin::pid {
namespace {

// The symbol table to read: .symtab (all functions, static ones
// included) when the object was not stripped, else .dynsym.
Elf_Scn *symbol_table(Elf *elf, GElf_Shdr &shdr)
{
	Elf_Scn *dynsym = nullptr;
	GElf_Shdr dynsym_hdr{};
	for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr h;
		if (gelf_getshdr(scn, &h) == nullptr)
			continue;
		if (h.sh_type == SHT_SYMTAB) {
			shdr = h;
			return scn;
		}
		if (h.sh_type == SHT_DYNSYM && dynsym == nullptr) {
			dynsym = scn;
			dynsym_hdr = h;
		}
	}
	shdr = dynsym_hdr;
	return dynsym;
}

} // namespace

elf_object::~elf_object()
{
	if (elf_)
		elf_end(elf_);
	if (fd_ >= 0)
		close(fd_);
}

int elf_object::open(const std::string &path, std::string &why)
{
	fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd_ < 0) {
		int err = errno;
		why = std::strerror(err);
		return -err;
	}
	elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
	GElf_Ehdr eh;
	if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF ||
	    gelf_getehdr(elf_, &eh) == nullptr) {
		why = elf_ ? "not an ELF object" : elf_errmsg(-1);
		return -ENOEXEC;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		why = "not an ELF executable or shared object";
		return -ENOEXEC;
	}
	machine_ = eh.e_machine;
	raw_ = reinterpret_cast<const uint8_t *>(elf_rawfile(elf_, &raw_size_));
	if (raw_ == nullptr) {
		why = elf_errmsg(-1);
		return -EIO;
	}
	return 0;
}

void elf_object::for_each_function(const std::function<bool(const char *)> &want,
				   const std::function<bool(const elf_function &)> &cb) const
{
	GElf_Shdr symhdr{};
	Elf_Scn *symscn = symbol_table(elf_, symhdr);
	if (symscn == nullptr || symhdr.sh_entsize == 0)
		return;
	Elf_Data *data = elf_getdata(symscn, nullptr);
	if (data == nullptr)
		return;
	size_t n = symhdr.sh_size / symhdr.sh_entsize;
	std::unordered_set<std::string_view> seen;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr)
			continue;
		unsigned type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_size == 0 ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		const char *name = elf_strptr(elf_, symhdr.sh_link, sym.st_name);
		if (name == nullptr || *name == '\0' || !want(name))
			continue;
		if (!seen.insert(name).second)
			continue;
		// st_value is a virtual address in an executable or shared
		// object; its section maps it to the file.
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(elf_, sym.st_shndx);
		if (scn == nullptr || gelf_getshdr(scn, &sh) == nullptr ||
		    sh.sh_type != SHT_PROGBITS || sym.st_value < sh.sh_addr ||
		    sym.st_value - sh.sh_addr + sym.st_size > sh.sh_size)
			continue;
		uint64_t off = sh.sh_offset + (sym.st_value - sh.sh_addr);
		if (off + sym.st_size > raw_size_)
			continue;
		elf_function fn{name, off, sym.st_size, raw_ + off};
		if (cb(fn))
			return;
	}
}

} // namespace dt::plugin::pid
