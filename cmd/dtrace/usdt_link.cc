// SPDX-License-Identifier: MIT
//
// dtrace -G for builds written for DTrace (Solaris, macOS, Oracle Linux):
//
//   cc -c a.c b.c                 a.o calls __dtrace_p___q(x, y), and
//                                 maybe __dtraceenabled_p___q() (from
//                                 illumos' -h header, <sys/sdt.h>'s
//                                 DTRACE_PROBEn, or its own extern)
//   dtrace -G -s p.d a.o b.o      rewrites a.o b.o, writes p.o
//   cc -o prog a.o b.o p.o
//
// illumos (dt_link.c) turns each probe call into NOPs, records the site
// in DOF inside p.o, and the kernel patches the NOPs into traps when the
// probe is enabled. We do the first part as illumos does and record the
// sites as stapsdt notes, which the kernel's uprobes (our usdt provider,
// and bpftrace, perf, systemtap, gdb) already know how to place:
//
//   call __dtrace_p___q   (e8 rel32)  ->  5-byte nop      (0f 1f 44 00 00)
//   jmp  __dtrace_p___q   (e9 rel32)  ->  ret; 4-byte nop (c3 0f 1f 40 00)
//                                         (a tail call: illumos too)
//   call *__dtrace_p___q@GOTPCREL(%rip) (ff 15, -fno-plt) and its jmp
//                                     ->  6-byte nop, or ret; 5-byte nop
//
// and adds to the same object a .note.stapsdt note per site whose address
// is relocated against a symbol of the site's section, whose semaphore is
// p_q_semaphore (the name -h's header uses), and whose operands say where
// the call left its arguments: at the nop the registers of the SysV call
// (%rdi %rsi %rdx %rcx %r8 %r9) still hold the first six, the stack the
// rest (0(%rsp), 8(%rsp) ...; one slot further at a tail call, whose
// return address is on the stack). Each operand's size and sign come from
// the probe's argument type in p.d, so an int is read as -4@%edi.
//
// Why rewrite rather than link the calls to functions in p.o that hold
// the probe: the probe then costs a nop where it is disabled, and it is
// where the program called it -- probefunc is the caller, ustack()
// starts there -- as in DTrace.
//
// The relocation of a rewritten call becomes R_X86_64_NONE and its symbol
// a weak hidden undefined one: the link needs no definition for it, and a
// second -G over the same object finds nothing left to do (illumos marks
// it the same way). An object not given to -G still calls the symbol and
// fails to link, as with DTrace.
//
// Is-enabled calls (__dtraceenabled_p___q()) stay calls: p.o defines each
// as a function that returns p_q_semaphore, the counter the kernel
// increments while a probe site of p:::q is placed. The semaphores are
// weak and hidden in .probes, as -h's header defines them, so a program
// may mix the two styles.
//
// p.o also holds .SUNW_dof, the section where DTrace keeps a linked
// program's DOF; ours is the program record below (record_bytes()), not
// DOF: no run-time loader of ours reads it.
#include "usdt_link.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <optional>

namespace dt::cli {
namespace {

std::string enabled_fn_of(const std::string &prov, const std::string &probe)
{
	return "__dtraceenabled_" + prov + "___" + compiler::usdt_note_name(probe);
}

// A native argument type's size and sign, as written in the definition
// ("const char *", "uint8_t", "unsigned long"). Unknown names are read
// as whole registers.
struct arg_kind {
	int size = 8;
	bool is_signed = false;
};

arg_kind kind_of(const std::string &type)
{
	if (type.find_first_of("*[") != std::string::npos)
		return {8, false};
	std::string base;
	bool uns = false;
	size_t longs = 0;
	for (size_t i = 0; i < type.size();) {
		size_t j = type.find(' ', i);
		std::string w = type.substr(i, j == std::string::npos ? std::string::npos : j - i);
		i = j == std::string::npos ? type.size() : j + 1;
		if (w == "unsigned")
			uns = true;
		else if (w == "long")
			longs++;
		else if (!w.empty() && w != "signed" && w != "const" && w != "volatile" &&
			 w != "int")
			base = w;
		else if (w == "int" && base.empty())
			base = "int";
	}
	if (longs > 0)
		return {8, !uns};
	static const std::map<std::string, arg_kind> k_named = {
		{"char", {1, true}},	   {"int8_t", {1, true}},    {"uint8_t", {1, false}},
		{"uchar_t", {1, false}},   {"_Bool", {1, false}},    {"bool", {1, false}},
		{"short", {2, true}},	   {"int16_t", {2, true}},   {"uint16_t", {2, false}},
		{"ushort_t", {2, false}},  {"int", {4, true}},	     {"int32_t", {4, true}},
		{"uint32_t", {4, false}},  {"uint_t", {4, false}},   {"pid_t", {4, true}},
		{"uid_t", {4, false}},	   {"gid_t", {4, false}},    {"id_t", {4, true}},
		{"int64_t", {8, true}},	   {"uint64_t", {8, false}}, {"intptr_t", {8, true}},
		{"uintptr_t", {8, false}}, {"size_t", {8, false}},   {"ssize_t", {8, true}},
		{"off_t", {8, true}},	   {"ulong_t", {8, false}},  {"hrtime_t", {8, true}},
	};
	if (base.empty()) // "unsigned", "signed"
		return {4, !uns};
	auto it = k_named.find(base);
	if (it == k_named.end())
		return {8, false};
	arg_kind k = it->second;
	if (uns)
		k.is_signed = false;
	return k;
}

// The operands of a site: where argument i is at the rewritten call.
std::string operands_of(const compiler::probe_definition &q, bool tail_call)
{
	static const char *const k_regs[6][4] = {
		{"rdi", "edi", "di", "dil"}, {"rsi", "esi", "si", "sil"},
		{"rdx", "edx", "dx", "dl"},  {"rcx", "ecx", "cx", "cl"},
		{"r8", "r8d", "r8w", "r8b"}, {"r9", "r9d", "r9w", "r9b"},
	};
	std::string out;
	for (size_t i = 0; i < q.args.size(); i++) {
		arg_kind k = kind_of(q.args[i]);
		std::string op = std::to_string(k.is_signed ? -k.size : k.size) + "@";
		if (i < 6) {
			int w = k.size == 8 ? 0 : k.size == 4 ? 1 : k.size == 2 ? 2 : 3;
			op += std::string("%") + k_regs[i][w];
		} else {
			op += std::to_string(8 * (i - 6) + (tail_call ? 8 : 0)) + "(%rsp)";
		}
		out += (i ? " " : "") + op;
	}
	return out;
}

struct fd_closer {
	int fd = -1;
	Elf *e = nullptr;
	~fd_closer()
	{
		if (e != nullptr)
			elf_end(e);
		if (fd >= 0)
			close(fd);
	}
};

bool libelf_ready(std::string &why)
{
	if (elf_version(EV_CURRENT) != EV_NONE)
		return true;
	why = std::string("libelf: ") + elf_errmsg(-1);
	return false;
}

// One probe call found in an object.
struct site {
	size_t section = 0; // the text section's index
	uint64_t offset = 0;
	bool tail_call = false;
	std::string prov;
	const compiler::probe_definition *probe = nullptr;
};

void put(std::vector<uint8_t> &v, const void *p, size_t n)
{
	const auto *b = static_cast<const uint8_t *>(p);
	v.insert(v.end(), b, b + n);
}

void put_str(std::vector<uint8_t> &v, const std::string &s)
{
	put(v, s.c_str(), s.size() + 1);
}

void align4(std::vector<uint8_t> &v)
{
	while (v.size() % 4 != 0)
		v.push_back(0);
}

// Sections and symbols added to an object opened for update: each table
// gets one more Elf_Data block, appended at its end (libelf lays the file
// out again on elf_update()).
class appender {
public:
	explicit appender(Elf_Scn *scn) : scn_(scn)
	{
		GElf_Shdr sh;
		gelf_getshdr(scn, &sh);
		size_ = sh.sh_size;
	}
	// Offset of `s` in a string table once written.
	size_t add_string(const std::string &s)
	{
		size_t at = size_ + extra_.size();
		put_str(extra_, s);
		return at;
	}
	void add_bytes(const void *p, size_t n) { put(extra_, p, n); }
	[[nodiscard]] size_t end() const { return size_ + extra_.size(); }
	bool flush(Elf_Type type, size_t align)
	{
		if (extra_.empty())
			return true;
		Elf_Data *d = elf_newdata(scn_);
		if (d == nullptr)
			return false;
		d->d_buf = extra_.data();
		d->d_size = extra_.size();
		d->d_type = type;
		d->d_align = align;
		return true;
	}

private:
	Elf_Scn *scn_;
	size_t size_ = 0;
	std::vector<uint8_t> extra_;
};

const compiler::probe_definition *find_probe(const provider_defs &defs, const std::string &prov,
					     const std::string &probe, std::string &why)
{
	for (const compiler::provider_definition &p : defs) {
		if (p.name != prov)
			continue;
		for (const compiler::probe_definition &q : p.probes)
			if (q.name == probe)
				return &q;
		why = "no such probe " + prov + ":::" + probe;
		return nullptr;
	}
	why = "no such provider " + prov;
	return nullptr;
}

// The symbol to relocate a site at `off` of section `sec` against, and
// the addend: the section's own symbol, else the nearest symbol below.
std::optional<std::pair<size_t, int64_t>> anchor_of(Elf_Data *syms, size_t nsyms, size_t sec,
						    uint64_t off)
{
	std::optional<std::pair<size_t, int64_t>> best;
	uint64_t best_value = 0;
	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym s;
		if (gelf_getsym(syms, static_cast<int>(i), &s) == nullptr || s.st_shndx != sec ||
		    s.st_value > off)
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_SECTION)
			return std::make_pair(i, static_cast<int64_t>(off));
		if (!best || s.st_value > best_value) {
			best = std::make_pair(i, static_cast<int64_t>(off - s.st_value));
			best_value = s.st_value;
		}
	}
	return best;
}

// The index of symbol `name`, or 0.
size_t find_symbol(Elf *e, Elf_Data *syms, size_t nsyms, size_t strndx, const std::string &name)
{
	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym s;
		const char *n = gelf_getsym(syms, static_cast<int>(i), &s) != nullptr
					? elf_strptr(e, strndx, s.st_name)
					: nullptr;
		if (n != nullptr && name == n)
			return i;
	}
	return 0;
}

// Find the probe calls of text section `text` (relocations `rels`) and
// rewrite them; false with `why`.
bool rewrite_calls(const provider_defs &defs, const std::string &path, Elf *e, Elf_Data *syms,
		   size_t strndx, Elf_Scn *rels, Elf_Scn *text, std::vector<site> &sites,
		   std::string &why)
{
	GElf_Shdr rsh;
	gelf_getshdr(rels, &rsh);
	Elf_Data *rel = elf_getdata(rels, nullptr);
	Elf_Data *code = elf_getdata(text, nullptr);
	for (size_t i = 0; rel != nullptr && i < rsh.sh_size / sizeof(Elf64_Rela); i++) {
		GElf_Rela r;
		GElf_Sym sym;
		if (gelf_getrela(rel, static_cast<int>(i), &r) == nullptr ||
		    GELF_R_TYPE(r.r_info) == R_X86_64_NONE)
			continue;
		auto symndx = static_cast<int>(GELF_R_SYM(r.r_info));
		if (gelf_getsym(syms, symndx, &sym) == nullptr)
			continue;
		const char *n = elf_strptr(e, strndx, sym.st_name);
		std::string name = n != nullptr ? n : "";
		bool enabled = name.starts_with("__dtraceenabled_");
		if (!enabled && !name.starts_with("__dtrace_"))
			continue;
		// __dtrace_PROV___PROBE, "__" in PROBE for "-" (illumos).
		std::string rest = name.substr(enabled ? 16 : 9);
		size_t sep = rest.find("___");
		if (sep == std::string::npos || sep == 0 || sep + 3 == rest.size()) {
			why = path + ": " + name + " names no provider and probe";
			return false;
		}
		std::string prov = rest.substr(0, sep), probe = rest.substr(sep + 3);
		for (size_t k; (k = probe.find("__")) != std::string::npos;)
			probe.replace(k, 2, "-");
		const compiler::probe_definition *q = find_probe(defs, prov, probe, why);
		if (q == nullptr)
			return false;
		if (enabled)
			continue; // a call of the function the link object defines
		uint32_t type = GELF_R_TYPE(r.r_info);
		auto *bytes = code != nullptr ? static_cast<uint8_t *>(code->d_buf) : nullptr;
		size_t len = 0; // of the instruction, ending at the rel32
		bool tail = false;
		if (bytes != nullptr && r.r_offset >= 1 && r.r_offset + 4 <= code->d_size) {
			const uint8_t *op = bytes + r.r_offset;
			if ((type == R_X86_64_PC32 || type == R_X86_64_PLT32) &&
			    (op[-1] == 0xe8 || op[-1] == 0xe9)) {
				len = 5; // call/jmp rel32
				tail = op[-1] == 0xe9;
			} else if ((type == R_X86_64_GOTPCRELX || type == R_X86_64_GOTPCREL) &&
				   r.r_offset >= 2 && op[-2] == 0xff &&
				   (op[-1] == 0x15 || op[-1] == 0x25)) {
				len = 6; // call/jmp *sym@GOTPCREL(%rip) (-fno-plt)
				tail = op[-1] == 0x25;
			}
		}
		if (len == 0) {
			why = path + ": the reference to " + name + " is not a call or a tail call";
			return false;
		}
		uint8_t *at = bytes + r.r_offset + 4 - len;
		// nops of 5 and 6 bytes; ret and a nop for a tail call
		static const uint8_t k_nop[2][6] = {{0x0f, 0x1f, 0x44, 0x00, 0x00},
						    {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}};
		static const uint8_t k_ret_nop[2][6] = {{0xc3, 0x0f, 0x1f, 0x40, 0x00},
							{0xc3, 0x0f, 0x1f, 0x44, 0x00, 0x00}};
		std::memcpy(at, tail ? k_ret_nop[len - 5] : k_nop[len - 5], len);
		elf_flagdata(code, ELF_C_SET, ELF_F_DIRTY);
		r.r_info = GELF_R_INFO(0, R_X86_64_NONE);
		gelf_update_rela(rel, static_cast<int>(i), &r);
		elf_flagdata(rel, ELF_C_SET, ELF_F_DIRTY);
		if (sym.st_shndx == SHN_UNDEF && GELF_ST_BIND(sym.st_info) == STB_GLOBAL) {
			sym.st_info = GELF_ST_INFO(STB_WEAK, GELF_ST_TYPE(sym.st_info));
			sym.st_other = STV_HIDDEN;
			gelf_update_sym(syms, symndx, &sym);
			elf_flagdata(syms, ELF_C_SET, ELF_F_DIRTY);
		}
		sites.push_back({elf_ndxscn(text), r.r_offset + 4 - len, tail, prov, q});
	}
	return true;
}

bool rewrite_object(const provider_defs &defs, const std::string &path, std::string &why)
{
	fd_closer f;
	f.fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
	if (f.fd < 0) {
		why = "failed to open " + path + ": " + std::strerror(errno);
		return false;
	}
	f.e = elf_begin(f.fd, ELF_C_RDWR, nullptr);
	GElf_Ehdr eh;
	if (f.e == nullptr || elf_kind(f.e) != ELF_K_ELF || gelf_getehdr(f.e, &eh) == nullptr) {
		why = path + " is not an ELF file";
		return false;
	}
	// The link object is 64-bit (illumos' -64, the class it guesses on
	// a 64-bit system); an object of the other class cannot join it.
	if (eh.e_ident[EI_CLASS] != ELFCLASS64) {
		why = "incorrect ELF class for object file: " + path;
		return false;
	}
	if (eh.e_type != ET_REL || eh.e_machine != EM_X86_64) {
		why = path + " is not an x86_64 ELF relocatable object";
		return false;
	}
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(f.e, &shstrndx) != 0) {
		why = path + ": no section names";
		return false;
	}
	Elf_Scn *symscn = nullptr;
	GElf_Shdr symsh;
	for (Elf_Scn *s = elf_nextscn(f.e, nullptr); s != nullptr; s = elf_nextscn(f.e, s))
		if (gelf_getshdr(s, &symsh) != nullptr && symsh.sh_type == SHT_SYMTAB) {
			symscn = s;
			break;
		}
	if (symscn == nullptr)
		return true; // it calls nothing
	Elf_Data *syms = elf_getdata(symscn, nullptr);
	size_t nsyms = symsh.sh_size / sizeof(Elf64_Sym);
	size_t strndx = symsh.sh_link;

	std::vector<site> sites;
	for (Elf_Scn *s = elf_nextscn(f.e, nullptr); s != nullptr; s = elf_nextscn(f.e, s)) {
		GElf_Shdr rsh, tsh;
		if (gelf_getshdr(s, &rsh) == nullptr || rsh.sh_type != SHT_RELA ||
		    rsh.sh_link != elf_ndxscn(symscn))
			continue;
		Elf_Scn *text = elf_getscn(f.e, rsh.sh_info);
		if (text == nullptr || gelf_getshdr(text, &tsh) == nullptr ||
		    (tsh.sh_flags & SHF_EXECINSTR) == 0)
			continue;
		if (!rewrite_calls(defs, path, f.e, syms, strndx, s, text, sites, why))
			return false;
	}
	if (sites.empty())
		return true;

	// The notes, and their relocations: the site, and its semaphore (a
	// hidden undefined symbol the link object defines, added here unless
	// the object already has it, from -h's header).
	appender symtab(symscn), strtab(elf_getscn(f.e, strndx)),
		shstrtab(elf_getscn(f.e, shstrndx));
	std::map<std::string, size_t> added;
	auto symbol = [&](const std::string &name) {
		if (size_t i = find_symbol(f.e, syms, nsyms, strndx, name); i != 0)
			return i;
		if (auto it = added.find(name); it != added.end())
			return it->second;
		Elf64_Sym s{};
		s.st_name = static_cast<Elf64_Word>(strtab.add_string(name));
		s.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
		s.st_other = STV_HIDDEN;
		s.st_shndx = SHN_UNDEF;
		size_t i = nsyms + added.size();
		symtab.add_bytes(&s, sizeof(s));
		added.emplace(name, i);
		return i;
	};
	std::vector<uint8_t> notes;
	std::vector<Elf64_Rela> relas;
	for (const site &st : sites) {
		auto anchor = anchor_of(syms, nsyms, st.section, st.offset);
		if (!anchor) {
			why = path + ": no symbol locates the probe site of " + st.prov +
			      ":::" + st.probe->name;
			return false;
		}
		std::string name = compiler::usdt_note_name(st.probe->name);
		std::string ops = operands_of(*st.probe, st.tail_call);
		uint32_t hdr[3] = {
			8,
			static_cast<uint32_t>(24 + st.prov.size() + name.size() + ops.size() + 3),
			3};
		put(notes, hdr, sizeof(hdr));
		put_str(notes, "stapsdt");
		size_t desc = notes.size();
		uint64_t zero[3] = {0, 0, 0}; // site, .stapsdt.base (none), semaphore
		put(notes, zero, sizeof(zero));
		put_str(notes, st.prov);
		put_str(notes, name);
		put_str(notes, ops);
		align4(notes);
		relas.push_back({desc, ELF64_R_INFO(anchor->first, R_X86_64_64), anchor->second});
		relas.push_back(
			{desc + 16,
			 ELF64_R_INFO(symbol(compiler::usdt_semaphore(st.prov, st.probe->name)),
				      R_X86_64_64),
			 0});
	}
	Elf_Scn *note = elf_newscn(f.e);
	Elf_Scn *rela = elf_newscn(f.e);
	if (note == nullptr || rela == nullptr) {
		why = path + ": " + elf_errmsg(-1);
		return false;
	}
	GElf_Shdr sh{};
	sh.sh_name = shstrtab.add_string(".note.stapsdt");
	sh.sh_type = SHT_NOTE;
	sh.sh_addralign = 4;
	Elf_Data *d = elf_newdata(note);
	d->d_buf = notes.data();
	d->d_size = notes.size();
	d->d_type = ELF_T_BYTE;
	d->d_align = 4;
	gelf_update_shdr(note, &sh);
	sh = {};
	sh.sh_name = shstrtab.add_string(".rela.note.stapsdt");
	sh.sh_type = SHT_RELA;
	sh.sh_flags = SHF_INFO_LINK;
	sh.sh_link = static_cast<GElf_Word>(elf_ndxscn(symscn));
	sh.sh_info = static_cast<GElf_Word>(elf_ndxscn(note));
	sh.sh_addralign = 8;
	sh.sh_entsize = sizeof(Elf64_Rela);
	d = elf_newdata(rela);
	d->d_buf = relas.data();
	d->d_size = relas.size() * sizeof(Elf64_Rela);
	d->d_type = ELF_T_RELA;
	d->d_align = 8;
	gelf_update_shdr(rela, &sh);
	if (!symtab.flush(ELF_T_SYM, 8) || !strtab.flush(ELF_T_BYTE, 1) ||
	    !shstrtab.flush(ELF_T_BYTE, 1) || elf_update(f.e, ELF_C_WRITE) < 0) {
		why = "failed to update " + path + ": " + elf_errmsg(-1);
		return false;
	}
	return true;
}

// A relocatable object written from nothing: sections in order, the
// symbol table's locals before its globals (as ELF requires).
class object_writer {
public:
	struct section {
		std::string name;
		GElf_Word type = SHT_PROGBITS;
		GElf_Xword flags = 0, align = 1, entsize = 0;
		std::vector<uint8_t> bytes;
		GElf_Word link = 0, info = 0;
	};
	std::vector<section> sections; // index i+1 in the file

	size_t add(section s)
	{
		sections.push_back(std::move(s));
		return sections.size();
	}

	bool write(const std::string &path, std::string &why)
	{
		fd_closer f;
		f.fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (f.fd < 0) {
			why = "failed to open " + path + ": " + std::strerror(errno);
			return false;
		}
		f.e = elf_begin(f.fd, ELF_C_WRITE, nullptr);
		std::vector<uint8_t> names(1, 0);
		section shstr;
		shstr.name = ".shstrtab";
		shstr.type = SHT_STRTAB;
		sections.push_back(shstr);
		std::vector<size_t> name_at;
		for (const section &s : sections) {
			name_at.push_back(names.size());
			put_str(names, s.name);
		}
		sections.back().bytes = names;
		GElf_Ehdr eh{};
		if (f.e == nullptr || gelf_newehdr(f.e, ELFCLASS64) == 0) {
			why = elf_errmsg(-1);
			return false;
		}
		gelf_getehdr(f.e, &eh);
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_type = ET_REL;
#if defined(__x86_64__)
		eh.e_machine = EM_X86_64;
#elif defined(__aarch64__)
		eh.e_machine = EM_AARCH64;
#endif
		eh.e_version = EV_CURRENT;
		for (size_t i = 0; i < sections.size(); i++) {
			const section &s = sections[i];
			Elf_Scn *scn = elf_newscn(f.e);
			Elf_Data *d = scn != nullptr ? elf_newdata(scn) : nullptr;
			if (d == nullptr) {
				why = elf_errmsg(-1);
				return false;
			}
			d->d_buf = const_cast<uint8_t *>(s.bytes.data());
			d->d_size = s.bytes.size();
			d->d_align = s.align;
			d->d_type = s.type == SHT_SYMTAB ? ELF_T_SYM
				    : s.type == SHT_RELA ? ELF_T_RELA
							 : ELF_T_BYTE;
			GElf_Shdr sh{};
			gelf_getshdr(scn, &sh);
			sh.sh_name = static_cast<GElf_Word>(name_at[i]);
			sh.sh_type = s.type;
			sh.sh_flags = s.flags;
			sh.sh_addralign = s.align;
			sh.sh_entsize = s.entsize;
			sh.sh_link = s.link;
			sh.sh_info = s.info;
			gelf_update_shdr(scn, &sh);
		}
		eh.e_shstrndx = static_cast<Elf64_Half>(sections.size());
		gelf_update_ehdr(f.e, &eh);
		if (elf_update(f.e, ELF_C_WRITE) < 0) {
			why = "failed to write " + path + ": " + elf_errmsg(-1);
			return false;
		}
		return true;
	}
};

} // namespace

std::string record_bytes(const link_record &r)
{
	std::string out = "dtrace -G program record 1\n";
	if (!r.strip) {
		out += "comment: " + r.comment + "\n";
		struct utsname u {};
		if (uname(&u) == 0)
			out += std::string("utsname: ") + u.sysname + " " + u.nodename + " " +
			       u.release + " " + u.version + " " + u.machine + "\n";
	}
	for (const auto &[name, text] : r.sources)
		out += "source: " + name + " " + std::to_string(text.size()) + "\n" + text + "\n";
	return out;
}

// The object, with sections:
//   1 .text               is-enabled functions, 8 bytes each:
//                         movzwl p_q_semaphore(%rip),%eax; ret
//   2 .rela.text          their references to the semaphores
//   3 .probes             the semaphores (2 bytes each, weak, hidden)
//   4 .SUNW_dof           the program record
//   5 .note.GNU-stack     (the link keeps a non-executable stack)
//   6 .symtab 7 .strtab 8 .shstrtab
bool write_link_object(const std::string &path, const provider_defs &defs, const link_record &r,
		       std::string &why)
{
	if (!libelf_ready(why))
		return false;
	object_writer w;
	using sec = object_writer::section;
	sec text{".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 16, 0, {}, 0, 0};
	sec rela{".rela.text", SHT_RELA, SHF_INFO_LINK, 8, sizeof(Elf64_Rela), {}, 6, 1};
	sec probes{".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 2, 0, {}, 0, 0};
	std::string rec = record_bytes(r);
	sec dof{".SUNW_dof", SHT_PROGBITS, 0, 8, 0, {rec.begin(), rec.end()}, 0, 0};
	sec stack{".note.GNU-stack", SHT_PROGBITS, 0, 1, 0, {}, 0, 0};
	sec symtab{".symtab", SHT_SYMTAB, 0, 8, sizeof(Elf64_Sym), {}, 7, 0};
	sec strtab{".strtab", SHT_STRTAB, 0, 1, 0, {0}, 0, 0};

	auto sym = [&](const std::string &name, unsigned char info, unsigned char other,
		       uint16_t shndx, uint64_t value, uint64_t size) {
		Elf64_Sym s{};
		s.st_name = static_cast<Elf64_Word>(name.empty() ? 0 : strtab.bytes.size());
		if (!name.empty())
			put_str(strtab.bytes, name);
		s.st_info = info;
		s.st_other = other;
		s.st_shndx = shndx;
		s.st_value = value;
		s.st_size = size;
		put(symtab.bytes, &s, sizeof(s));
		return symtab.bytes.size() / sizeof(Elf64_Sym) - 1;
	};
	sym("", 0, 0, SHN_UNDEF, 0, 0);
	sym("", ELF64_ST_INFO(STB_LOCAL, STT_SECTION), 0, 1, 0, 0);
	symtab.info = 2; // the first global
#if defined(__x86_64__)
	for (const compiler::provider_definition &p : defs)
		for (const compiler::probe_definition &q : p.probes) {
			uint64_t fn = text.bytes.size(), sem = probes.bytes.size();
			static const uint8_t k_code[8] = {0x0f, 0xb7, 0x05, 0, 0, 0, 0, 0xc3};
			put(text.bytes, k_code, sizeof(k_code));
			probes.bytes.insert(probes.bytes.end(), 2, 0);
			sym(enabled_fn_of(p.name, q.name), ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
			    STV_HIDDEN, 1, fn, sizeof(k_code));
			size_t s = sym(compiler::usdt_semaphore(p.name, q.name),
				       ELF64_ST_INFO(STB_WEAK, STT_OBJECT), STV_HIDDEN, 3, sem, 2);
			Elf64_Rela rl{fn + 3, ELF64_R_INFO(s, R_X86_64_PC32), -4};
			put(rela.bytes, &rl, sizeof(rl));
		}
#else
	if (!defs.empty()) {
		why = "probes of provider definitions are linked on x86_64 only";
		return false;
	}
#endif
	for (sec *s : {&text, &rela, &probes, &dof, &stack, &symtab, &strtab})
		w.add(std::move(*s));
	return w.write(path, why);
}

bool rewrite_objects(const provider_defs &defs, const std::vector<std::string> &objs,
		     std::string &why)
{
	if (!libelf_ready(why))
		return false;
	for (const std::string &o : objs)
		if (!rewrite_object(defs, o, why))
			return false;
	return true;
}

} // namespace dt::cli
