// SPDX-License-Identifier: MIT
// Objects mapped after tracing starts (see load_watch.hpp). The run-time
// linker is the object mapped at AT_BASE (/proc/PID/auxv); its
// _dl_debug_state (.dynsym, GLIBC_PRIVATE) is where glibc's r_debug.r_brk
// points, a function that only returns.
#include "load_watch.hpp"

#include "engine/bpf/stop_point.hpp"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace dt::detail {
namespace {

std::string proc_path(pid_t pid, const char *what)
{
	return "/proc/" + std::to_string(pid) + "/" + what;
}

// AT_BASE: where the run-time linker is mapped (0: none, a static program).
uint64_t interp_base(pid_t pid)
{
	std::ifstream in(proc_path(pid, "auxv"), std::ios::binary);
	uint64_t kv[2];
	while (in.read(reinterpret_cast<char *>(kv), sizeof(kv))) {
		if (kv[0] == AT_NULL)
			break;
		if (kv[0] == AT_BASE)
			return kv[1];
	}
	return 0;
}

// The files the process maps ("dev inode path" lines, sorted), and the
// path of the one mapped at `base` (if base is not 0).
std::string mapped_files(pid_t pid, uint64_t base = 0, std::string *at_base = nullptr)
{
	std::ifstream in(proc_path(pid, "maps"));
	std::set<std::string> files;
	std::string line;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string range, perms, off, dev, path;
		unsigned long long inode = 0;
		if (!(ls >> range >> perms >> off >> dev >> inode) || inode == 0)
			continue;
		std::getline(ls >> std::ws, path);
		if (path.empty() || path[0] != '/')
			continue;
		files.insert(dev + " " + std::to_string(inode) + " " + path);
		if (at_base != nullptr && base != 0 &&
		    std::stoull(range.substr(0, range.find('-')), nullptr, 16) == base)
			*at_base = path;
	}
	std::string out;
	for (const std::string &f : files)
		out += f + "\n";
	return out;
}

// The file offset of symbol `name` (a function) in the ELF file `path`,
// or 0.
uint64_t symbol_offset(const std::string &path, const char *name)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	uint64_t result = 0;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
	uint64_t vaddr = 0;
	for (Elf_Scn *scn = nullptr;
	     e != nullptr && vaddr == 0 && (scn = elf_nextscn(e, scn)) != nullptr;) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == nullptr ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB) || sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, nullptr);
		for (size_t i = 0; d != nullptr && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			if (gelf_getsym(d, static_cast<int>(i), &sym) == nullptr ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0)
				continue;
			const char *n = elf_strptr(e, sh.sh_link, sym.st_name);
			if (n != nullptr && std::string_view(n) == name) {
				vaddr = sym.st_value;
				break;
			}
		}
	}
	size_t nph = 0;
	if (e != nullptr && vaddr != 0 && elf_getphdrnum(e, &nph) == 0)
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(e, static_cast<int>(i), &ph) != nullptr &&
			    ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
			    vaddr < ph.p_vaddr + ph.p_filesz) {
				result = vaddr - ph.p_vaddr + ph.p_offset;
				break;
			}
		}
	if (e != nullptr)
		elf_end(e);
	close(fd);
	return result;
}

// The process's state letter (/proc/PID/stat), or 0 when it is gone.
char state_of(pid_t pid)
{
	std::ifstream in(proc_path(pid, "stat"));
	std::string s;
	std::getline(in, s);
	size_t r = s.rfind(')');
	return r == std::string::npos || r + 2 >= s.size() ? 0 : s[r + 2];
}

} // namespace

bool wait_stopped(pid_t pid)
{
	// The thread sent itself SIGSTOP in a probe: it stops as it returns
	// to user space, microseconds from now, or once it is scheduled on a
	// machine that is busy. A pending SIGSTOP cannot be ignored, so the
	// wait ends at the stop or the exit; the limit only guards against a
	// stop that another tracer takes (ptrace) and never shows.
	auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
	char st;
	while ((st = state_of(pid)) != 0 && st != 'T' && st != 't' && st != 'Z' && st != 'X' &&
	       std::chrono::steady_clock::now() < until)
		std::this_thread::sleep_for(std::chrono::microseconds(200));
	return st != 0 && st != 'Z' && st != 'X';
}

bool process_gone(pid_t pid)
{
	char st = state_of(pid);
	return st == 0 || st == 'Z' || st == 'X';
}

load_watch::load_watch() = default;

load_watch::~load_watch()
{
	finish();
}

std::string load_watch::add(pid_t pid)
{
	uint64_t base = interp_base(pid);
	if (base == 0)
		return "no run-time linker (a static program)";
	std::string ldso;
	std::string files = mapped_files(pid, base, &ldso);
	if (ldso.empty())
		return "its run-time linker's mapping was not found";
	std::string root = proc_path(pid, "root") + ldso;
	uint64_t off = symbol_offset(root, "_dl_debug_state");
	if (off == 0)
		return ldso + " has no _dl_debug_state";
	watched w;
	w.pid = pid;
	try {
		w.sp = std::make_unique<engines::bpf::stop_point>(pid, root, off);
	} catch (const std::exception &e) {
		return e.what();
	}
	w.seen = 0;
	w.files = std::move(files);
	list_.push_back(std::move(w));
	return "";
}

bool load_watch::pending() const
{
	for (const watched &w : list_)
		if (w.sp->count() > w.seen)
			return true;
	return false;
}

std::vector<load_watch::stopped> load_watch::take()
{
	std::vector<stopped> out;
	for (watched &w : list_) {
		uint64_t n = w.sp->count();
		if (n <= w.seen)
			continue;
		w.seen = n;
		if (!wait_stopped(w.pid))
			continue; // gone
		std::string files = mapped_files(w.pid);
		bool changed = files != w.files;
		w.files = std::move(files);
		out.push_back({w.pid, changed});
	}
	return out;
}

void load_watch::resume(pid_t pid)
{
	(void)kill(pid, SIGCONT);
}

void load_watch::remove(pid_t pid)
{
	std::erase_if(list_, [&](const watched &w) {
		if (w.pid != pid)
			return false;
		if (process_gone(pid))
			w.sp->detach_later();
		return true;
	});
}

void load_watch::finish()
{
	for (watched &w : list_)
		w.sp->detach();
	for (const stopped &s : take())
		resume(s.pid);
	list_.clear();
}

} // namespace dt::detail
