// SPDX-License-Identifier: MIT
//
// consumer/unwind.cc - ustack() captures to pcs with libdwfl (unwind.hpp).
//
//   Capture layout          parse()
//   Per-pid Dwfl            process_for(), open_process()
//   Thread callbacks        cb_next_thread ... cb_set_initial_registers
//   Unwinding               unwinder::unwind(), fp_walk()
#include "unwind.hpp"

#include <dtrace/ustack_capture.hpp>

#include <elfutils/libdwfl.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

namespace dt::consumer_impl {

namespace {

// ---- Capture layout (dtrace/program.hpp) -----------------------------------

struct capture {
	pid_t pid = 0;
	uint64_t ip = 0, sp = 0, bp = 0;
	const uint8_t *stack = nullptr; // the copy of [sp, sp + len)
	uint64_t len = 0;
};

uint64_t word(const uint8_t *p, size_t i)
{
	uint64_t v;
	std::memcpy(&v, p + i * 8, 8);
	return v;
}

bool parse(const uint8_t *p, uint32_t size, capture &c)
{
	if (size < k_ustack_capture_header ||
	    (word(p, 1) & k_ustack_capture_mask) != k_ustack_capture_magic)
		return false;
	c.pid = static_cast<pid_t>(word(p, 0));
	c.ip = word(p, 2);
	c.sp = word(p, 3);
	c.bp = word(p, 4);
	c.stack = p + k_ustack_capture_header;
	c.len = std::min<uint64_t>(word(p, 1) & ~k_ustack_capture_mask,
				   size - k_ustack_capture_header);
	return true;
}

// A word of the stack as it was at the probe: from the copy, nothing else
// (the live process's stack has moved on).
bool read_copy(const capture &c, uint64_t addr, uint64_t &v)
{
	if (addr < c.sp || addr - c.sp > c.len || c.len - (addr - c.sp) < 8)
		return false;
	std::memcpy(&v, c.stack + (addr - c.sp), 8);
	return true;
}

// The frame pointer chain in the copy: rbp -> {saved rbp, return address}.
std::vector<uint64_t> fp_walk(const capture &c, uint32_t max)
{
	std::vector<uint64_t> pcs;
	if (c.ip == 0 || max == 0)
		return pcs;
	pcs.push_back(c.ip);
	uint64_t bp = c.bp;
	while (pcs.size() < max) {
		uint64_t next, ret;
		if (!read_copy(c, bp, next) || !read_copy(c, bp + 8, ret) || ret == 0 || next <= bp)
			break;
		pcs.push_back(ret);
		bp = next;
	}
	return pcs;
}

// ---- Thread callbacks --------------------------------------------------------
//
// One thread, the captured one; dwfl_arg is the capture being unwound (the
// process's Dwfl is attached once, the capture changes under it).

struct current {
	const capture *c = nullptr;
};

pid_t cb_next_thread(Dwfl *, void *arg, void **thread_argp)
{
	auto *cur = static_cast<current *>(arg);
	if (*thread_argp != nullptr || cur->c == nullptr)
		return 0;
	*thread_argp = arg;
	return cur->c->pid;
}

bool cb_get_thread(Dwfl *, pid_t, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return static_cast<current *>(arg)->c != nullptr;
}

bool cb_memory_read(Dwfl *, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	auto *cur = static_cast<current *>(arg);
	uint64_t v;
	if (cur->c == nullptr || !read_copy(*cur->c, addr, v))
		return false;
	*result = v;
	return true;
}

// x86_64 DWARF registers: 6 rbp, 7 rsp; the pc apart. The others are
// unknown: a rule that needs one ends the walk there.
bool cb_set_initial_registers(Dwfl_Thread *t, void *thread_arg)
{
	const capture &c = *static_cast<current *>(thread_arg)->c;
	Dwarf_Word regs[2] = {c.bp, c.sp};
	if (!dwfl_thread_state_registers(t, 6, 2, regs))
		return false;
	dwfl_thread_state_register_pc(t, c.ip);
	return true;
}

const Dwfl_Thread_Callbacks k_thread_callbacks = {
	cb_next_thread, cb_get_thread, cb_memory_read, cb_set_initial_registers, nullptr, nullptr,
};

// Objects from /proc/PID/maps; their ELF from the path (or the process for
// the vdso); debug info where dwfl_standard_find_debuginfo looks
// (/usr/lib/debug/.build-id/xx/yyyy.debug, .gnu_debuglink).
char *g_debuginfo_path = nullptr;
const Dwfl_Callbacks k_proc_callbacks = {
	dwfl_linux_proc_find_elf,
	dwfl_standard_find_debuginfo,
	nullptr,
	&g_debuginfo_path,
};

struct frames_arg {
	std::vector<uint64_t> *pcs;
	uint32_t max;
};

int cb_frame(Dwfl_Frame *f, void *arg)
{
	auto *a = static_cast<frames_arg *>(arg);
	Dwarf_Addr pc;
	bool activation;
	if (!dwfl_frame_pc(f, &pc, &activation) || pc == 0)
		return DWARF_CB_ABORT;
	a->pcs->push_back(pc);
	return a->pcs->size() >= a->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

struct dwfl_deleter {
	void operator()(Dwfl *d) const { dwfl_end(d); }
};

} // namespace

// ---- Per-pid Dwfl ------------------------------------------------------------

struct unwinder::impl {
	struct process {
		std::unique_ptr<Dwfl, dwfl_deleter> dwfl; // null: maps unreadable
		std::chrono::steady_clock::time_point opened;
		size_t maps_hash = 0; // of /proc/PID/maps when noted (note_process)
	};
	std::map<pid_t, process> procs;
	current cur;

	static std::unique_ptr<Dwfl, dwfl_deleter> open_process(pid_t pid, current *cur)
	{
		std::unique_ptr<Dwfl, dwfl_deleter> d(dwfl_begin(&k_proc_callbacks));
		if (!d)
			return d;
		dwfl_report_begin(d.get());
		int r = dwfl_linux_proc_report(d.get(), pid);
		if (dwfl_report_end(d.get(), nullptr, nullptr) != 0 || r != 0 ||
		    !dwfl_attach_state(d.get(), nullptr, pid, &k_thread_callbacks, cur))
			d.reset();
		return d;
	}

	// The Dwfl of c's process; re-read when c's pc is in no object known
	// (a dlopen since) and the last reading is a second old.
	Dwfl *process_for(const capture &c)
	{
		auto now = std::chrono::steady_clock::now();
		auto it = procs.find(c.pid);
		if (it == procs.end()) {
			process p{open_process(c.pid, &cur), now, 0};
			it = procs.emplace(c.pid, std::move(p)).first;
		} else if (now - it->second.opened > std::chrono::seconds(1) &&
			   (!it->second.dwfl ||
			    dwfl_addrmodule(it->second.dwfl.get(), c.ip) == nullptr)) {
			auto d = open_process(c.pid, &cur);
			if (d) // a process gone keeps what was read while it lived
				it->second.dwfl = std::move(d);
			it->second.opened = now;
		}
		return it->second.dwfl.get();
	}
};

void unwinder::note_process(pid_t pid)
{
	if (pid <= 0)
		return;
	// Re-read only when its mappings changed (a dlopen, an exec): a new
	// Dwfl drops the objects' CFI read so far.
	std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
	std::ostringstream text;
	text << in.rdbuf();
	if (text.str().empty()) // gone: what was read while it lived stays
		return;
	size_t h = std::hash<std::string>{}(text.str());
	auto it = impl_->procs.find(pid);
	if (it != impl_->procs.end() && it->second.dwfl && it->second.maps_hash == h)
		return;
	auto d = impl::open_process(pid, &impl_->cur);
	if (!d)
		return;
	auto now = std::chrono::steady_clock::now();
	if (it == impl_->procs.end())
		impl_->procs.emplace(pid, impl::process{std::move(d), now, h});
	else
		it->second = impl::process{std::move(d), now, h};
}

unwinder::unwinder() : impl_(std::make_unique<impl>())
{
}
unwinder::~unwinder() = default;

bool unwinder::is_capture(const uint8_t *p, uint32_t size)
{
	capture c;
	return parse(p, size, c);
}

std::vector<uint64_t> unwinder::unwind(const uint8_t *p, uint32_t size, uint32_t max)
{
	capture c;
	std::vector<uint64_t> pcs;
	if (!parse(p, size, c) || c.ip == 0 || max == 0)
		return pcs;
	Dwfl *d = impl_->process_for(c);
	if (d == nullptr)
		return fp_walk(c, max);
	impl_->cur.c = &c;
	frames_arg a{&pcs, max};
	// -1 with frames: the walk ended early (a pc without CFI or frame
	// pointer, the end of the copy); the frames found stand.
	(void)dwfl_getthread_frames(d, c.pid, cb_frame, &a);
	impl_->cur.c = nullptr;
	if (pcs.empty())
		pcs.push_back(c.ip);
	return pcs;
}

void unwinder::rewrite(uint8_t *p, uint32_t size, uint32_t max)
{
	if (!is_capture(p, size))
		return;
	max = std::min(max, size / 8 - 1);
	std::vector<uint64_t> pcs = unwind(p, size, max);
	std::memset(p + 8, 0, size - 8);
	std::memcpy(p + 8, pcs.data(), pcs.size() * 8);
}

} // namespace dt::consumer_impl
