// SPDX-License-Identifier: MIT
//
// link.hpp - the BPF library (lib/*.bpf.c, built with clang -target bpf and
// embedded in libdtrace) as the translator's linker sees it, and the link
// step that appends the library functions a program calls.
//
//   library::parse(elf bytes)      functions of every executable section,
//                                  their calls and map references
//   embedded_library()             the object built into libdtrace (parsed
//                                  once); throws translate_error when the
//                                  build had no BPF compiler
//   link(asm, lib, fds)            appends the functions reachable from the
//                                  program's calls (only those: the
//                                  verifier rejects unreachable code),
//                                  resolves BPF-to-BPF calls (library and
//                                  local subprograms) and map references
//                                  by name (DT_BPF_MAP_*) to fds
//
// Anything else in the object (.rodata/.data references, kfuncs,
// callbacks) is refused with a message naming the symbol.
#pragma once

#include "insn.hpp"
#include "translate.hpp"

#include <linux/bpf.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

extern "C" {
// The library object's bytes (lib_object.cc, generated at build time);
// size 0 when the build had no BPF compiler.
extern const unsigned char dt_bpf_lib_object[];
extern const size_t dt_bpf_lib_object_size;
}

namespace dt::engines::bpf {

class library {
public:
	struct function {
		std::string name;
		uint32_t start = 0; // index in text
		uint32_t len = 0;   // instructions
	};
	// What an instruction refers to (from the relocation tables).
	struct reloc {
		uint32_t type = 0; // R_BPF_*
		std::string sym;   // symbol name ("" for a section symbol)
		bool sym_is_text = false;
		uint32_t sym_index = 0; // text index the symbol's value designates
	};

	std::vector<bpf_insn> text; // every executable section, concatenated
	std::vector<function> funcs;
	std::map<uint32_t, reloc> relocs; // by text index

	[[nodiscard]] static library parse(const unsigned char *data, size_t size);
	[[nodiscard]] const function *find(const std::string &name) const;
	[[nodiscard]] bool has(const std::string &name) const { return find(name) != nullptr; }
	[[nodiscard]] const function *containing(uint32_t idx) const;
};

// The embedded library (throws translate_error when it was not built).
[[nodiscard]] const library &embedded_library();

struct link_result {
	uint32_t lib_start = 0;		   // first library instruction
	std::vector<uint32_t> func_starts; // every function (0 = main), ascending
	bool callbacks = false;		   // BPF_PSEUDO_FUNC used: needs func_info
};

// Append the library functions the program calls and resolve every call,
// callback address (BPF_PSEUDO_FUNC) and map reference.
link_result link(asm_buf &a, const library &lib, const map_fds &fds);

} // namespace dt::engines::bpf
