// SPDX-License-Identifier: MIT
//
// consumer/unwind.hpp - whole user stacks from a ustack() capture (the
// registers and a copy of the user stack a probe took with -x ustackbytes;
// layout in dtrace/program.hpp), unwound here with libdw's libdwfl as
// perf --call-graph dwarf does (docs/ustack.md):
//
//   capture ──► per-pid Dwfl (the objects of /proc/PID/maps, their
//               .eh_frame/.debug_frame, split debug info by build id)
//           ──► dwfl_attach_state: our thread callbacks read memory from the
//               copy only and start from the captured ip, sp, bp
//           ──► dwfl_thread_getframes: CFI, frame pointers where an object
//               has none (libdw's x86_64 fallback)
//           ──► pcs, leaf first
//
// The session notes each process it follows while it lives (note_process),
// so a capture consumed after its process exited unwinds by what was read;
// a pid never read while it lived is unwound by the frame pointer chain in
// the copy alone. A
// process's Dwfl is cached while the consumer runs, so captures consumed
// after it exits still unwind; a pc outside every object it knew re-reads
// its maps (dlopen), at most once a second.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace dt::consumer_impl {

class unwinder {
public:
	unwinder();
	~unwinder();
	unwinder(const unwinder &) = delete;
	unwinder &operator=(const unwinder &) = delete;

	// Is the ustack() record or key at p (size bytes) a capture?
	[[nodiscard]] static bool is_capture(const uint8_t *p, uint32_t size);
	// The capture's pcs, leaf first, at most max of them.
	[[nodiscard]] std::vector<uint64_t> unwind(const uint8_t *p, uint32_t size, uint32_t max);
	// Read pid's objects now, while it lives (and again when the last
	// reading is a second old), so that captures consumed after it has
	// exited still unwind through the objects it had.
	void note_process(pid_t pid);
	// Rewrites a capture in place to the ordinary layout: pid, at most max
	// pcs, zeros. Anything else is left alone.
	void rewrite(uint8_t *p, uint32_t size, uint32_t max);

private:
	struct impl;
	std::unique_ptr<impl> impl_;
};

} // namespace dt::consumer_impl
