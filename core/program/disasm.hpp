// SPDX-License-Identifier: MIT
//
// disasm.hpp - one DIF object in DTrace's `dtrace -S` layout (illumos
// dt_dis()): the header line with the return type, one line per
// instruction, then the variable table. dt::compiler::disassemble(program)
// (dtrace/compiler.hpp) prints every DIF object of a program this way, in
// the order DTrace assembles them.
//
// Pure formatting: no validation, any bytes disassemble (an unknown opcode
// prints "(illegal opcode)", as illumos).
#pragma once

#include <dtrace/program.hpp>

#include <string>

namespace dt::compiler {

// One DIFO; addr is what the header shows as "DIFO 0x<addr>" (illumos
// prints the object's address; 0 means the address of dp).
[[nodiscard]] std::string disassemble(const difo &dp, const void *addr = nullptr);

// The printable name of DIF subroutine subr ("unknown" if none), as
// illumos dtrace_subrstr().
[[nodiscard]] const char *subr_name(uint32_t subr);

} // namespace dt::compiler
