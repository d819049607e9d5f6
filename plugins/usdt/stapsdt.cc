// SPDX-License-Identifier: MIT
// stapsdt.hpp: .note.stapsdt with libelf; operands by hand (the format is
// systemtap's, a few lines of grammar that no Debian library parses for us:
// libbpf's parser is internal to its own USDT attach).
#include "stapsdt.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>

namespace dt::plugin::usdt {
namespace {

constexpr uint32_t k_nt_stapsdt = 3;

struct function_sym {
	uint64_t addr, size;
	std::string name;
};

// x86_64 struct pt_regs byte offsets, by every name of the register and of
// its low parts (the operand's size says how much of it is meant).
struct reg_name {
	const char *names[4];
	int16_t off;
};
constexpr reg_name k_regs[] = {
	{{"rax", "eax", "ax", "al"}, 80},      {{"rbx", "ebx", "bx", "bl"}, 40},
	{{"rcx", "ecx", "cx", "cl"}, 88},      {{"rdx", "edx", "dx", "dl"}, 96},
	{{"rsi", "esi", "si", "sil"}, 104},    {{"rdi", "edi", "di", "dil"}, 112},
	{{"rbp", "ebp", "bp", "bpl"}, 32},     {{"rsp", "esp", "sp", "spl"}, 152},
	{{"r8", "r8d", "r8w", "r8b"}, 72},     {{"r9", "r9d", "r9w", "r9b"}, 64},
	{{"r10", "r10d", "r10w", "r10b"}, 56}, {{"r11", "r11d", "r11w", "r11b"}, 48},
	{{"r12", "r12d", "r12w", "r12b"}, 24}, {{"r13", "r13d", "r13w", "r13b"}, 16},
	{{"r14", "r14d", "r14w", "r14b"}, 8},  {{"r15", "r15d", "r15w", "r15b"}, 0},
	{{"rip", "eip", "ip", nullptr}, 128},
};

std::optional<int16_t> reg_offset(std::string_view name)
{
	for (const reg_name &r : k_regs)
		for (const char *n : r.names)
			if (n != nullptr && name == n)
				return r.off;
	return std::nullopt;
}

template <typename T>
bool parse_int(std::string_view s, T &v)
{
	int base = 10;
	bool neg = false;
	if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		s.remove_prefix(1);
	}
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s.remove_prefix(2);
	}
	uint64_t u = 0;
	auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), u, base);
	if (s.empty() || ec != std::errc() || p != s.data() + s.size())
		return false;
	v = static_cast<T>(neg ? 0 - u : u);
	return true;
}

bool parse_operand(std::string_view tok, dt_usdt_arg_t &a, std::string &why)
{
	std::memset(&a, 0, sizeof(a));
	a.size = 8;
	if (size_t at = tok.find('@'); at != std::string_view::npos) {
		int size = 0;
		if (!parse_int(tok.substr(0, at), size) ||
		    (std::abs(size) != 1 && std::abs(size) != 2 && std::abs(size) != 4 &&
		     std::abs(size) != 8)) {
			why = "operand size in '" + std::string(tok) + "'";
			return false;
		}
		a.size = static_cast<int8_t>(size);
		tok.remove_prefix(at + 1);
	}
	if (tok.starts_with('$')) {
		a.kind = DT_USDT_ARG_CONST;
		if (!parse_int(tok.substr(1), a.value)) {
			why = "constant '" + std::string(tok) + "'";
			return false;
		}
		return true;
	}
	if (tok.starts_with('%')) {
		auto off = reg_offset(tok.substr(1));
		if (!off) {
			why = "register '" + std::string(tok) + "'";
			return false;
		}
		a.kind = DT_USDT_ARG_REG;
		a.reg = *off;
		return true;
	}
	// [disp](%base[,%index[,scale]])
	size_t lp = tok.find('(');
	auto bad = [&] {
		why = "memory operand '" + std::string(tok) + "'";
		return false;
	};
	if (lp == std::string_view::npos || !tok.ends_with(')'))
		return bad();
	std::string_view disp = tok.substr(0, lp);
	std::string_view inside = tok.substr(lp + 1, tok.size() - lp - 2);
	std::string_view parts[3];
	size_t nparts = 0;
	while (nparts < 3) {
		size_t c = inside.find(',');
		parts[nparts++] = inside.substr(0, c);
		if (c == std::string_view::npos)
			break;
		inside.remove_prefix(c + 1);
	}
	auto reg = [](std::string_view r) {
		return r.starts_with('%') ? reg_offset(r.substr(1)) : std::nullopt;
	};
	auto base = reg(parts[0]);
	// %rip-relative operands name a symbol; the address is not the
	// register's value at the probe.
	if (!base || *base == 128 || (!disp.empty() && !parse_int(disp, a.value)))
		return bad();
	a.kind = DT_USDT_ARG_MEM;
	a.reg = *base;
	if (nparts > 1) {
		auto index = reg(parts[1]);
		int scale = 1;
		if (!index || *index == 128 || (nparts == 3 && !parse_int(parts[2], scale)) ||
		    (scale != 1 && scale != 2 && scale != 4 && scale != 8))
			return bad();
		a.index = *index;
		a.scale = static_cast<uint8_t>(scale);
	}
	return true;
}

class elf_file {
public:
	~elf_file()
	{
		if (elf_ != nullptr)
			elf_end(elf_);
		if (fd_ >= 0)
			close(fd_);
	}
	int open(const std::string &path, std::string &why)
	{
		fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
		if (fd_ < 0) {
			int e = errno;
			why = std::strerror(e);
			return -e;
		}
		elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
		if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) {
			why = "not an ELF object";
			return -ENOEXEC;
		}
		return 0;
	}
	Elf *get() const { return elf_; }

private:
	int fd_ = -1;
	Elf *elf_ = nullptr;
};

std::vector<function_sym> functions(Elf *e, Elf_Scn *symtab)
{
	std::vector<function_sym> out;
	GElf_Shdr sh;
	if (symtab == nullptr || gelf_getshdr(symtab, &sh) == nullptr || sh.sh_entsize == 0)
		return out;
	Elf_Data *d = elf_getdata(symtab, nullptr);
	size_t n = d != nullptr ? d->d_size / sh.sh_entsize : 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (gelf_getsym(d, static_cast<int>(i), &s) == nullptr ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
		    s.st_size == 0)
			continue;
		const char *name = elf_strptr(e, sh.sh_link, s.st_name);
		if (name != nullptr && *name != '\0')
			out.push_back({s.st_value, s.st_size, name});
	}
	std::sort(out.begin(), out.end(),
		  [](const function_sym &a, const function_sym &b) { return a.addr < b.addr; });
	return out;
}

std::string function_at(const std::vector<function_sym> &fns, uint64_t addr)
{
	auto it = std::upper_bound(fns.begin(), fns.end(), addr,
				   [](uint64_t a, const function_sym &f) { return a < f.addr; });
	if (it == fns.begin())
		return "";
	--it;
	return addr < it->addr + it->size ? it->name : "";
}

} // namespace

std::string probe_name(std::string_view note_name)
{
	std::string out;
	for (size_t i = 0; i < note_name.size(); i++) {
		if (note_name[i] == '_' && i + 1 < note_name.size() && note_name[i + 1] == '_') {
			out += '-';
			i++;
		} else {
			out += note_name[i];
		}
	}
	return out;
}

bool parse_operands(std::string_view operands, std::vector<dt_usdt_arg_t> &out, std::string &why)
{
	size_t i = 0;
	while (i < operands.size()) {
		while (i < operands.size() && std::isspace(static_cast<unsigned char>(operands[i])))
			i++;
		size_t j = i;
		while (j < operands.size() &&
		       !std::isspace(static_cast<unsigned char>(operands[j])))
			j++;
		if (j == i)
			break;
		if (out.size() == 12) { // <sys/sdt.h>'s most (STAP_PROBE12)
			why = "more than 12 operands";
			return false;
		}
		dt_usdt_arg_t a;
		if (!parse_operand(operands.substr(i, j - i), a, why))
			return false;
		out.push_back(a);
		i = j;
	}
	return true;
}

int read_sites(const std::string &path, std::vector<site> &out, std::string &why)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		why = elf_errmsg(-1);
		return -ENOTSUP;
	}
	elf_file f;
	if (int rc = f.open(path, why); rc < 0)
		return rc;
	Elf *e = f.get();
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(e, &shstrndx) != 0) {
		why = "no section names";
		return -ENOEXEC;
	}
	Elf_Scn *notes = nullptr, *symtab = nullptr, *dynsym = nullptr;
	uint64_t base_addr = 0;
	for (Elf_Scn *scn = elf_nextscn(e, nullptr); scn != nullptr; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == nullptr)
			continue;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name == nullptr)
			continue;
		if (sh.sh_type == SHT_NOTE && std::strcmp(name, ".note.stapsdt") == 0)
			notes = scn;
		else if (std::strcmp(name, ".stapsdt.base") == 0)
			base_addr = sh.sh_addr;
		else if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	if (notes == nullptr)
		return 0;

	std::vector<GElf_Phdr> loads;
	size_t phnum = 0;
	if (elf_getphdrnum(e, &phnum) == 0)
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(e, static_cast<int>(i), &ph) != nullptr &&
			    ph.p_type == PT_LOAD)
				loads.push_back(ph);
		}
	auto file_offset = [&](uint64_t va, bool exec) -> std::optional<uint64_t> {
		for (const GElf_Phdr &ph : loads)
			if (va >= ph.p_vaddr && va < ph.p_vaddr + ph.p_memsz &&
			    (!exec || (ph.p_flags & PF_X) != 0))
				return va - ph.p_vaddr + ph.p_offset;
		return std::nullopt;
	};
	std::vector<function_sym> fns = functions(e, symtab != nullptr ? symtab : dynsym);

	size_t asz = gelf_getclass(e) == ELFCLASS64 ? 8 : 4;
	Elf_Data *d = elf_getdata(notes, nullptr);
	size_t off = 0, name_off = 0, desc_off = 0;
	GElf_Nhdr nh;
	while (d != nullptr && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const char *buf = static_cast<const char *>(d->d_buf);
		if (nh.n_type != k_nt_stapsdt || nh.n_namesz != 8 ||
		    std::memcmp(buf + name_off, "stapsdt", 8) != 0 || nh.n_descsz < 3 * asz + 3)
			continue;
		const char *desc = buf + desc_off;
		auto addr = [&](size_t k) {
			uint64_t v = 0;
			if (asz == 8) {
				std::memcpy(&v, desc + k * 8, 8);
			} else {
				uint32_t w = 0;
				std::memcpy(&w, desc + k * 4, 4);
				v = w;
			}
			return v;
		};
		uint64_t pc = addr(0), note_base = addr(1), sem = addr(2);
		// Three NUL-terminated strings, within the descriptor.
		std::string_view strs(desc + 3 * asz, nh.n_descsz - 3 * asz);
		std::string_view parts[3];
		for (auto &p : parts) {
			size_t nul = strs.find('\0');
			if (nul == std::string_view::npos)
				break;
			p = strs.substr(0, nul);
			strs.remove_prefix(nul + 1);
		}
		if (parts[0].empty() || parts[1].empty())
			continue;
		if (base_addr != 0 && note_base != 0)
			pc += base_addr - note_base;
		auto pc_off = file_offset(pc, true);
		if (!pc_off)
			continue;
		site s;
		s.provider = parts[0];
		s.name = parts[1];
		s.operands = parts[2];
		s.func = function_at(fns, pc);
		s.pc_offset = *pc_off;
		if (sem != 0)
			s.sem_offset = file_offset(sem, false).value_or(0);
		out.push_back(std::move(s));
	}
	return 0;
}

} // namespace dt::plugin::usdt
