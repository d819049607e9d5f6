// SPDX-License-Identifier: MIT
//
// consumer/symbols.hpp - addresses to names for stack(), ustack(), sym(),
// usym(), %a and %A, in DTrace's forms (illumos dtrace_addr2str,
// dtrace_uaddr2str, dt_print_stack/ustack):
//
//   kernel: /proc/kallsyms (all zeros without privilege: nothing resolves,
//           addresses print as 0x...). Core symbols live in "vmlinux",
//           module symbols in their module.
//   user:   /proc/PID/maps for the objects mapped, libelf for each object's
//           .symtab, else the .symtab of its split debug info
//           (/usr/lib/debug/.build-id/), else .dynsym; objects are named by
//           basename. Code in no file: /tmp/perf-PID.map (JIT compilers).
//
// Lookups never throw; a miss is std::nullopt. Tables are loaded lazily and
// cached (kernel once; each ELF file once).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dt::consumer_impl {

struct sym_info {
	std::string object; // module or object basename ("vmlinux", "libc.so.6")
	std::string name;   // symbol name; empty if only the object is known
	uint64_t value = 0; // the symbol's address (in the address space looked up)
	uint64_t size = 0;
};

class symbols {
public:
	symbols();
	~symbols();
	symbols(const symbols &) = delete;
	symbols &operator=(const symbols &) = delete;

	// Kernel address: symbol (and its module), or only the module.
	[[nodiscard]] std::optional<sym_info> kernel(uint64_t addr);
	// User address in pid: symbol and object, or only the object.
	[[nodiscard]] std::optional<sym_info> user(pid_t pid, uint64_t addr);
	// Re-read pid's mappings (and open the objects mapped) now; a pid
	// that is gone keeps the mappings read before.
	void refresh_process(pid_t pid);

	// Where an aggregation key of sym()/mod()/usym()/umod() is folded to,
	// so that addresses in one function (module, object) are one key
	// (illumos dt_aggregate_sym/_mod/_usym/_umod). addr itself if unknown.
	[[nodiscard]] uint64_t ksym_start(uint64_t addr);
	[[nodiscard]] uint64_t kmod_start(uint64_t addr);
	[[nodiscard]] uint64_t usym_start(pid_t pid, uint64_t addr);
	[[nodiscard]] uint64_t umod_start(pid_t pid, uint64_t addr);

	// DTrace's text forms.
	[[nodiscard]] std::string addr2str(uint64_t addr);	       // %a: mod`sym+0x1a
	[[nodiscard]] std::string uaddr2str(pid_t pid, uint64_t addr); // %A, uaddr()
	[[nodiscard]] std::string ksym(uint64_t addr);		       // sym(): mod`sym
	[[nodiscard]] std::string kmod(uint64_t addr);		       // mod(): mod
	[[nodiscard]] std::string usym(pid_t pid, uint64_t addr);      // usym(): obj`sym
	[[nodiscard]] std::string umod(pid_t pid, uint64_t addr);      // umod(): obj
	[[nodiscard]] std::string kframe(uint64_t pc);		       // a stack() frame
	[[nodiscard]] std::string uframe(pid_t pid, uint64_t pc);      // a ustack() frame
	// -x noresolve: the object and the address's offset in the mapping
	// that holds it ("libc.so.6:0x2724a"), for resolving later; the bare
	// address outside every file.
	[[nodiscard]] std::string unresolved(pid_t pid, uint64_t addr);

private:
	[[nodiscard]] std::optional<sym_info> jit(pid_t pid, uint64_t addr);
	struct impl;
	std::unique_ptr<impl> impl_;
};

} // namespace dt::consumer_impl
