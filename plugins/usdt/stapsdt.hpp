// SPDX-License-Identifier: MIT
// USDT probe sites of one ELF object, from its .note.stapsdt notes: what
// <sys/sdt.h> (systemtap-sdt-dev) emits, what Debian's python3, PostgreSQL,
// Node and the JVM ship, and what `dtrace -h` headers emit.
//
// A note (type 3, owner "stapsdt") holds three addresses -- the probe
// instruction, the link-time address of the .stapsdt.base section, the
// is-enabled semaphore (0: none) -- then three strings: provider, probe
// name, operands. An object moved after linking (prelink) is told by
// .stapsdt.base's address differing from the note's; the probe address
// moves with it. Addresses become file offsets through the PT_LOAD
// segments (a uprobe and its reference counter are placed by offset).
//
// Operands ("-4@%edi 8@-16(%rbp) -8@$5", x86_64 AT&T syntax) are parsed
// by parse_operands(): [-]SIZE@ then %reg, $constant or
// [displacement](%base[,%index[,scale]]). A symbol relative to %rip is
// reported as unreadable, with the operand.
#pragma once

#include <dtrace/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dt::plugin::usdt {

struct site {
	std::string provider;	 // as in the note ("python")
	std::string name;	 // as in the note ("function__entry")
	std::string func;	 // the function that holds the site ("" if unknown)
	std::string operands;	 // "8@%rbx -4@%edi"
	uint64_t pc_offset = 0;	 // file offset of the probe instruction
	uint64_t sem_offset = 0; // file offset of the semaphore; 0: none
};

// Read the sites of the object at `path`. Returns 0 (an object without
// notes has no sites), or a negative errno with `why` set (-ENOEXEC: not
// an ELF object this reader understands).
[[nodiscard]] int read_sites(const std::string &path, std::vector<site> &out, std::string &why);

// DTrace's name of a stapsdt probe: "__" becomes "-" (function__entry ->
// function-entry), as dtrace -h's headers encode "-" as "__".
[[nodiscard]] std::string probe_name(std::string_view note_name);

// Parse a note's operands into at most 12 arguments. False (with `why`)
// if one cannot be read by a probe; `out` then holds those before it.
[[nodiscard]] bool parse_operands(std::string_view operands, std::vector<dt_usdt_arg_t> &out,
				  std::string &why);

} // namespace dt::plugin::usdt
