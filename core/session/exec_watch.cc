// SPDX-License-Identifier: MIT
// Processes started after tracing began (see exec_watch.hpp).
#include "exec_watch.hpp"

#include "engine/bpf/exec_stop.hpp"
#include "load_watch.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace dt::detail {

bool has_usdt_notes(const char *path)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool found = false;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
	size_t shstrndx = 0;
	if (e != nullptr && elf_getshdrstrndx(e, &shstrndx) == 0)
		for (Elf_Scn *scn = nullptr; !found && (scn = elf_nextscn(e, scn)) != nullptr;) {
			GElf_Shdr sh;
			if (gelf_getshdr(scn, &sh) == nullptr || sh.sh_type != SHT_NOTE)
				continue;
			const char *n = elf_strptr(e, shstrndx, sh.sh_name);
			found = n != nullptr && std::strcmp(n, ".note.stapsdt") == 0;
		}
	if (e != nullptr)
		elf_end(e);
	close(fd);
	return found;
}

namespace {

// The watches alive: dtrace(1) ends with exit() on some errors, and the
// processes stopped for a watch must still be continued.
std::vector<exec_watch *> &live()
{
	static std::vector<exec_watch *> v;
	return v;
}

void finish_live()
{
	for (exec_watch *w : live())
		w->finish();
}

} // namespace

exec_watch::exec_watch() : stop_(std::make_unique<engines::bpf::exec_stop>())
{
	// live() first: it is then destroyed after finish_live() has run.
	static const bool registered = (live(), std::atexit(finish_live) == 0);
	(void)registered;
	live().push_back(this);
}

exec_watch::~exec_watch()
{
	std::erase(live(), this);
	finish();
}

bool exec_watch::pending() const
{
	return stop_->pending();
}

std::vector<exec_watch::started> exec_watch::take()
{
	std::vector<started> out;
	for (const engines::bpf::exec_stop::stopped &s : stop_->take()) {
		const bool held = s.file.held != 0;
		if (held ? !wait_stopped(s.pid) : process_gone(s.pid))
			continue; // gone
		std::string exe = "/proc/" + std::to_string(s.pid) + "/exe";
		if (has_usdt_notes(exe.c_str())) {
			out.push_back({s.pid, held});
			continue;
		}
		stop_->skip(s.file);
		if (held)
			load_watch::resume(s.pid);
	}
	return out;
}

void exec_watch::finish()
{
	stop_->detach();
	for (const engines::bpf::exec_stop::stopped &s : stop_->take())
		if (s.file.held != 0 && wait_stopped(s.pid))
			load_watch::resume(s.pid);
}

} // namespace dt::detail
