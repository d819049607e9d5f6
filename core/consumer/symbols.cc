// SPDX-License-Identifier: MIT
//
// consumer/symbols.cc - kernel symbols from /proc/kallsyms, user symbols
// from /proc/PID/maps and libelf (symbols.hpp). Text forms follow illumos
// dt_subr.c dtrace_addr2str()/dtrace_uaddr2str() and dt_consume.c.
#include "symbols.hpp"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace dt::consumer_impl {

namespace {

struct ksym_ent {
	uint64_t addr;
	std::string name;
	std::string module;
};

struct elf_sym {
	uint64_t value;
	uint64_t size;
	std::string name;
	// Among aliases (same value and size) the highest is shown: exported
	// (global or weak) before local (glibc's __GI_* aliases), then fewer
	// leading underscores ("getppid" before "__getppid").
	int rank = 0;
};

int sym_rank(const GElf_Sym &s, const char *nm)
{
	int underscores = 0;
	while (nm[underscores] == '_')
		underscores++;
	bool exported = GELF_ST_BIND(s.st_info) != STB_LOCAL;
	return (exported ? 1000 : 0) - underscores;
}

struct elf_file {
	bool ok = false;
	bool is_dyn = false;
	struct load {
		uint64_t offset, vaddr, filesz;
	};
	std::vector<load> loads;
	std::vector<elf_sym> syms; // sorted by value
};

struct mapping {
	uint64_t start, end, offset;
	std::string path;
};

std::string hex(uint64_t v)
{
	char b[24];
	std::snprintf(b, sizeof b, "0x%" PRIx64, v);
	return b;
}

std::string basename_of(const std::string &p)
{
	auto s = p.rfind('/');
	return s == std::string::npos ? p : p.substr(s + 1);
}

void read_symtab(Elf *e, elf_file &f, Elf64_Word want)
{
	Elf_Scn *scn = nullptr;
	while ((scn = elf_nextscn(e, scn)) != nullptr) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != want || sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, nullptr);
		if (!d)
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, static_cast<int>(i), &s))
				continue;
			int t = GELF_ST_TYPE(s.st_info);
			if ((t != STT_FUNC && t != STT_OBJECT) || s.st_shndx == SHN_UNDEF ||
			    s.st_value == 0)
				continue;
			const char *nm = elf_strptr(e, sh.sh_link, s.st_name);
			if (!nm || !*nm)
				continue;
			// A versioned definition in a debug file's .symtab
			// ("__libc_start_main@GLIBC_2.2.5"): the name alone.
			const char *at = std::strchr(nm, '@');
			f.syms.push_back({s.st_value, s.st_size,
					  at && at != nm ? std::string(nm, at) : std::string(nm),
					  sym_rank(s, nm)});
		}
	}
}

// A stripped object's .symtab from its split debug info, found by build id
// where Debian's -dbg and -dbgsym packages put it
// (/usr/lib/debug/.build-id/xx/rest.debug); its values are the object's.
void read_debug_symtab(Elf *e, elf_file &f)
{
	const void *id = nullptr;
	ssize_t n = dwelf_elf_gnu_build_id(e, &id);
	if (n < 2)
		return;
	const auto *b = static_cast<const unsigned char *>(id);
	std::string path = "/usr/lib/debug/.build-id/";
	char x[3];
	for (ssize_t i = 0; i < n; i++) {
		std::snprintf(x, sizeof x, "%02x", b[i]);
		path += x;
		if (i == 0)
			path += '/';
	}
	path += ".debug";
	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (Elf *d = elf_begin(fd, ELF_C_READ, nullptr)) {
		if (elf_kind(d) == ELF_K_ELF)
			read_symtab(d, f, SHT_SYMTAB);
		elf_end(d);
	}
	::close(fd);
}

elf_file load_elf(const std::string &path)
{
	elf_file f;
	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return f;
	Elf *e = elf_begin(fd, ELF_C_READ, nullptr);
	if (e && elf_kind(e) == ELF_K_ELF) {
		GElf_Ehdr eh;
		if (gelf_getehdr(e, &eh)) {
			f.ok = true;
			f.is_dyn = eh.e_type == ET_DYN;
			size_t nph = 0;
			elf_getphdrnum(e, &nph);
			for (size_t i = 0; i < nph; i++) {
				GElf_Phdr ph;
				if (gelf_getphdr(e, static_cast<int>(i), &ph) &&
				    ph.p_type == PT_LOAD)
					f.loads.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
			}
			read_symtab(e, f, SHT_SYMTAB);
			if (f.syms.empty())
				read_debug_symtab(e, f);
			if (f.syms.empty())
				read_symtab(e, f, SHT_DYNSYM);
			std::sort(f.syms.begin(), f.syms.end(), [](const auto &a, const auto &b) {
				if (a.value != b.value)
					return a.value < b.value;
				if (a.size != b.size)
					return a.size > b.size; // the innermost last
				return a.rank < b.rank;		// the best alias last (found first)
			});
		}
	}
	if (e)
		elf_end(e);
	::close(fd);
	return f;
}

} // namespace

// /tmp/perf-PID.map: "START SIZE NAME" lines (hex) that JIT compilers
// (the JVM with -XX:+DumpPerfMapAtExit or perf-map-agent, node --perf-basic-prof,
// Python 3.12's -X perf) write for code they generate.
std::vector<elf_sym> load_perf_map(pid_t pid)
{
	std::vector<elf_sym> v;
	std::ifstream in("/tmp/perf-" + std::to_string(pid) + ".map");
	std::string line;
	while (std::getline(in, line)) {
		char *end = nullptr;
		uint64_t start = std::strtoull(line.c_str(), &end, 16);
		if (!end || *end != ' ')
			continue;
		uint64_t size = std::strtoull(end + 1, &end, 16);
		if (!end || *end != ' ' || end[1] == '\0')
			continue;
		v.push_back({start, size, std::string(end + 1)});
	}
	std::sort(v.begin(), v.end(),
		  [](const elf_sym &a, const elf_sym &b) { return a.value < b.value; });
	return v;
}

struct symbols::impl {
	bool kloaded = false;
	// pid -> its perf map (empty if none), read on the first miss of an
	// address outside every file.
	std::map<pid_t, std::vector<elf_sym>> perf_maps;
	std::vector<ksym_ent> ktab; // sorted by address; empty without privilege
	std::map<std::string, elf_file> elves;
	std::map<pid_t, std::vector<mapping>> maps;

	void load_kernel()
	{
		kloaded = true;
		std::ifstream in("/proc/kallsyms");
		std::string line;
		while (std::getline(in, line)) {
			std::istringstream ls(line);
			std::string a, t, name, mod;
			if (!(ls >> a >> t >> name))
				continue;
			ls >> mod;
			uint64_t addr = std::strtoull(a.c_str(), nullptr, 16);
			if (addr == 0)
				continue;
			if (mod.size() > 2 && mod.front() == '[')
				mod = mod.substr(1, mod.size() - 2);
			else
				mod = "vmlinux";
			ktab.push_back({addr, name, mod});
		}
		std::stable_sort(
			ktab.begin(), ktab.end(),
			[](const ksym_ent &x, const ksym_ent &y) { return x.addr < y.addr; });
	}

	const std::vector<mapping> &pid_maps(pid_t pid, bool reload)
	{
		auto it = maps.find(pid);
		if (it != maps.end() && !reload)
			return it->second;
		std::vector<mapping> v;
		std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
		std::string line;
		while (std::getline(in, line)) {
			mapping m{};
			char perms[8] = {};
			unsigned long long s = 0, e = 0, off = 0;
			int pos = 0;
			if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &s, &e,
					perms, &off, &pos) < 4)
				continue;
			m.start = s;
			m.end = e;
			m.offset = off;
			if (pos > 0 && static_cast<size_t>(pos) < line.size())
				m.path = line.substr(static_cast<size_t>(pos));
			v.push_back(std::move(m));
		}
		// Gone (or a zombie, whose maps read empty): keep what was read
		// while it lived.
		if (v.empty() && it != maps.end())
			return it->second;
		return maps[pid] = std::move(v);
	}

	const mapping *find_map(pid_t pid, uint64_t addr)
	{
		for (int pass = 0; pass < 2; pass++) {
			for (const auto &m : pid_maps(pid, pass == 1))
				if (addr >= m.start && addr < m.end)
					return &m;
		}
		return nullptr;
	}

	const elf_file &elf(const std::string &path)
	{
		auto it = elves.find(path);
		if (it != elves.end())
			return it->second;
		return elves[path] = load_elf(path);
	}
};

symbols::symbols() : impl_(std::make_unique<impl>())
{
	elf_version(EV_CURRENT);
}

symbols::~symbols() = default;

std::optional<sym_info> symbols::kernel(uint64_t addr)
{
	if (!impl_->kloaded)
		impl_->load_kernel();
	const auto &t = impl_->ktab;
	auto it = std::upper_bound(t.begin(), t.end(), addr,
				   [](uint64_t a, const ksym_ent &s) { return a < s.addr; });
	if (it == t.begin())
		return std::nullopt;
	--it;
	auto next = it + 1;
	sym_info si;
	si.object = it->module;
	si.name = it->name;
	si.value = it->addr;
	si.size = next == t.end() ? 1 : next->addr - it->addr;
	if (next == t.end() && addr != it->addr)
		return std::nullopt;
	return si;
}

void symbols::refresh_process(pid_t pid)
{
	if (pid <= 0)
		return;
	for (const auto &m : impl_->pid_maps(pid, true))
		if (!m.path.empty() && m.path[0] == '/')
			(void)impl_->elf(m.path); // the file may go too
}

std::optional<sym_info> symbols::user(pid_t pid, uint64_t addr)
{
	if (pid <= 0)
		return std::nullopt;
	const mapping *m = impl_->find_map(pid, addr);
	if (!m || m->path.empty() || m->path[0] != '/')
		return jit(pid, addr);
	sym_info si;
	si.object = basename_of(m->path);
	const elf_file &f = impl_->elf(m->path);
	if (!f.ok)
		return si;
	// The address as the object's link-time address.
	uint64_t vaddr = addr;
	if (f.is_dyn) {
		uint64_t foff = addr - m->start + m->offset;
		vaddr = foff;
		for (const auto &l : f.loads)
			if (foff >= l.offset && foff < l.offset + std::max<uint64_t>(l.filesz, 1)) {
				vaddr = foff - l.offset + l.vaddr;
				break;
			}
	}
	const auto &s = f.syms;
	auto it = std::upper_bound(s.begin(), s.end(), vaddr,
				   [](uint64_t a, const elf_sym &e) { return a < e.value; });
	while (it != s.begin()) {
		--it;
		if (vaddr < it->value + std::max<uint64_t>(it->size, 1)) {
			si.name = it->name;
			si.value = addr - (vaddr - it->value);
			si.size = it->size;
			return si;
		}
		if (it->size != 0 || it->value != vaddr)
			break;
	}
	return si;
}

// Code outside every file: a JIT's, named in /tmp/perf-PID.map (the file
// is read once per pid; a JIT that writes it later is not seen).
std::optional<sym_info> symbols::jit(pid_t pid, uint64_t addr)
{
	auto it = impl_->perf_maps.find(pid);
	if (it == impl_->perf_maps.end())
		it = impl_->perf_maps.emplace(pid, load_perf_map(pid)).first;
	const auto &s = it->second;
	auto e = std::upper_bound(s.begin(), s.end(), addr,
				  [](uint64_t a, const elf_sym &x) { return a < x.value; });
	if (e == s.begin())
		return std::nullopt;
	--e;
	if (addr >= e->value + std::max<uint64_t>(e->size, 1))
		return std::nullopt;
	sym_info si;
	si.object = "perf-" + std::to_string(pid) + ".map";
	si.name = e->name;
	si.value = e->value;
	si.size = e->size;
	return si;
}

uint64_t symbols::ksym_start(uint64_t addr)
{
	auto s = kernel(addr);
	return s && !s->name.empty() ? s->value : addr;
}

uint64_t symbols::kmod_start(uint64_t addr)
{
	auto s = kernel(addr);
	if (!s)
		return addr;
	for (const auto &k : impl_->ktab) // sorted: the module's lowest symbol
		if (k.module == s->object)
			return k.addr;
	return addr;
}

uint64_t symbols::usym_start(pid_t pid, uint64_t addr)
{
	auto s = user(pid, addr);
	return s && !s->name.empty() ? s->value : addr;
}

uint64_t symbols::umod_start(pid_t pid, uint64_t addr)
{
	if (pid <= 0)
		return addr;
	const mapping *m = impl_->find_map(pid, addr);
	if (!m || m->path.empty())
		return addr;
	for (const auto &o : impl_->pid_maps(pid, false))
		if (o.path == m->path)
			return o.start;
	return addr;
}

// dtrace_addr2str()
std::string symbols::addr2str(uint64_t addr)
{
	auto s = kernel(addr);
	if (!s)
		return hex(addr);
	if (s->name.empty())
		return s->object + "`" + hex(addr);
	if (addr != s->value)
		return s->object + "`" + s->name + "+" + hex(addr - s->value);
	return s->object + "`" + s->name;
}

// dtrace_uaddr2str()
std::string symbols::uaddr2str(pid_t pid, uint64_t addr)
{
	auto s = user(pid, addr);
	if (!s)
		return hex(addr);
	if (s->name.empty())
		return s->object + "`" + hex(addr);
	if (addr > s->value)
		return s->object + "`" + s->name + "+" + hex(addr - s->value);
	return s->object + "`" + s->name;
}

// dt_print_sym()
std::string symbols::ksym(uint64_t addr)
{
	auto s = kernel(addr);
	if (!s)
		return hex(addr);
	if (s->name.empty())
		return s->object + "`" + hex(addr);
	return s->object + "`" + s->name;
}

// dt_print_mod()
std::string symbols::kmod(uint64_t addr)
{
	auto s = kernel(addr);
	return s ? s->object : hex(addr);
}

// dt_print_usym(): the address moved to its symbol's start, then as uaddr.
std::string symbols::usym(pid_t pid, uint64_t addr)
{
	auto s = user(pid, addr);
	if (s && !s->name.empty())
		addr = s->value;
	return uaddr2str(pid, addr);
}

// dt_print_umod()
std::string symbols::umod(pid_t pid, uint64_t addr)
{
	auto s = user(pid, addr);
	return s ? s->object : hex(addr);
}

// dt_print_stack(): one frame.
std::string symbols::kframe(uint64_t pc)
{
	auto s = kernel(pc);
	if (!s)
		return hex(pc);
	if (s->name.empty())
		return s->object + "`" + hex(pc);
	if (pc > s->value)
		return s->object + "`" + s->name + "+" + hex(pc - s->value);
	return s->object + "`" + s->name;
}

// dt_print_ustack(): one frame.
std::string symbols::uframe(pid_t pid, uint64_t pc)
{
	return uaddr2str(pid, pc);
}

// -x noresolve (not in illumos; Oracle's DTrace names it): object:offset.
std::string symbols::unresolved(pid_t pid, uint64_t addr)
{
	const mapping *m = pid > 0 ? impl_->find_map(pid, addr) : nullptr;
	if (!m || m->path.empty() || m->path[0] != '/')
		return hex(addr);
	return basename_of(m->path) + ":" + hex(addr - m->start);
}

} // namespace dt::consumer_impl
