// SPDX-License-Identifier: MIT
//
// compiler/codegen/dif_builder.hpp - assembling one DIF object: the
// instruction list with forward labels, the integer and string tables
// (deduplicated), the variable table, and register allocation (illumos
// dt_regset: %r1-%r7, lowest free first; running out raises D_NOREG with
// illumos' EDT_NOREG wording).
#pragma once

#include <dtrace/program.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dt::compiler {

class dif_builder {
public:
	using label = uint32_t;

	// ---- registers
	[[nodiscard]] uint8_t alloc(uint32_t line);
	void free(uint8_t r);
	void take(uint8_t r) { used_ = static_cast<uint8_t>(used_ | (1u << r)); }
	// A point to go back to (code and registers) when an attempt at an
	// expression runs out of registers and is redone with a spill.
	struct mark {
		size_t text, fixups, relocs;
		uint8_t used;
	};
	[[nodiscard]] mark here() const
	{
		return {text_.size(), fixups_.size(), relocs_.size(), used_};
	}
	void rewind(const mark &m)
	{
		text_.resize(m.text);
		fixups_.resize(m.fixups);
		relocs_.resize(m.relocs);
		used_ = m.used;
	}
	// ---- instructions
	void emit(dif_instr_t i) { text_.push_back(i); }
	[[nodiscard]] label new_label();
	void place(label l);
	void branch(uint8_t op, label l);
	// ---- tables
	[[nodiscard]] uint32_t intern_int(uint64_t v);
	[[nodiscard]] uint32_t intern_str(const std::string &s);
	void setx(uint64_t v, uint8_t rd);
	// A setx of a symbol's value (illumos dt_cg_xsetx() with an ident):
	// the instruction a relocation would patch, should the link mode
	// leave the symbol to be resolved later (codegen's link check).
	struct reloc {
		size_t at; // instruction index
		std::string object, name;
		uint32_t line;
	};
	void setx_symbol(uint64_t v, uint8_t rd, reloc r);
	[[nodiscard]] const std::vector<reloc> &relocs() const { return relocs_; }
	void use_var(uint32_t id, uint8_t scope, uint8_t kind, const std::string &name,
		     dtrace_diftype_t type, bool mod);
	// Resolve labels; the DIF object (ends with the caller's ret).
	[[nodiscard]] difo finish(dtrace_diftype_t rtype);

private:
	std::vector<dif_instr_t> text_;
	std::vector<uint64_t> ints_;
	std::string strs_;
	std::map<std::string, uint32_t> str_index_;
	std::vector<dtrace_difv_t> vars_;
	std::vector<std::string> var_names_;
	std::vector<int64_t> labels_; // label -> instruction index (-1 unplaced)
	std::vector<std::pair<size_t, label>> fixups_;
	std::vector<reloc> relocs_;
	uint8_t used_ = 1; // bit r set: register r allocated (%r0 always)
};

} // namespace dt::compiler
