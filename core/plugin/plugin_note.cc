// SPDX-License-Identifier: MIT
// A plugin's DT_PLUGIN_NOTE (dtrace/plugin.h), read from the file without
// loading it: the ELF header, the program headers, each PT_NOTE segment
// walked for the note owned by "DTrace" of type DT_PLUGIN_NOTE_PROBES.
// Four reads of a few hundred bytes where dlopen() would map the object,
// its dependencies, relocate them and run constructors.
#include "plugin_internal.hpp"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <sstream>
#include <vector>

namespace dt::detail {
namespace {

bool read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, static_cast<off_t>(off)) == static_cast<ssize_t>(n);
}

uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

// The note in one PT_NOTE segment's bytes, if there.
bool find_note(const std::vector<char> &seg, uint64_t align, plugin_note &out)
{
	uint64_t o = 0;
	while (seg.size() - o >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		std::memcpy(&nh, seg.data() + o, sizeof(nh));
		uint64_t name_at = o + sizeof(nh);
		uint64_t desc_at = name_at + align_up(nh.n_namesz, align);
		uint64_t end = desc_at + align_up(nh.n_descsz, align);
		if (end > seg.size() || desc_at + nh.n_descsz > seg.size())
			return false;
		if (nh.n_type == DT_PLUGIN_NOTE_PROBES &&
		    nh.n_namesz == sizeof(DT_PLUGIN_NOTE_OWNER) &&
		    std::memcmp(seg.data() + name_at, DT_PLUGIN_NOTE_OWNER, nh.n_namesz) == 0 &&
		    nh.n_descsz > sizeof(uint32_t)) {
			std::memcpy(&out.flags, seg.data() + desc_at, sizeof(uint32_t));
			const char *s = seg.data() + desc_at + sizeof(uint32_t);
			size_t n = nh.n_descsz - sizeof(uint32_t);
			std::istringstream words(std::string(s, strnlen(s, n)));
			std::string w;
			out.names.clear();
			while (words >> w)
				out.names.push_back(w);
			return !out.names.empty();
		}
		o = end;
	}
	return false;
}

} // namespace

bool read_plugin_note(const std::string &path, plugin_note &out)
{
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool found = false;
	Elf64_Ehdr eh;
	if (read_at(fd, &eh, sizeof(eh), 0) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr) &&
	    eh.e_phnum > 0 && eh.e_phnum < 128) {
		std::vector<Elf64_Phdr> ph(eh.e_phnum);
		if (read_at(fd, ph.data(), ph.size() * sizeof(Elf64_Phdr), eh.e_phoff)) {
			for (const Elf64_Phdr &p : ph) {
				if (p.p_type != PT_NOTE || p.p_filesz == 0 || p.p_filesz > 65536)
					continue;
				std::vector<char> seg(p.p_filesz);
				if (!read_at(fd, seg.data(), seg.size(), p.p_offset))
					continue;
				if (find_note(seg, p.p_align == 8 ? 8 : 4, out)) {
					found = true;
					break;
				}
			}
		}
	}
	close(fd);
	return found;
}

} // namespace dt::detail
