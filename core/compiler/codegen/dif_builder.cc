// SPDX-License-Identifier: MIT
//
// compiler/codegen/dif_builder.cc - see dif_builder.hpp.
#include "dif_builder.hpp"

#include "../diag.hpp"

namespace dt::compiler {

uint8_t dif_builder::alloc(uint32_t line)
{
	for (uint8_t r = 1; r < DIF_DIR_NREGS; r++) {
		if (!(used_ & (1u << r))) {
			used_ = static_cast<uint8_t>(used_ | (1u << r));
			return r;
		}
	}
	fail(tag::EDT_NOREG, line, "Insufficient registers to generate code");
}

void dif_builder::free(uint8_t r)
{
	if (r != 0)
		used_ = static_cast<uint8_t>(used_ & ~(1u << r));
}

dif_builder::label dif_builder::new_label()
{
	labels_.push_back(-1);
	return static_cast<label>(labels_.size() - 1);
}

void dif_builder::place(label l)
{
	labels_[l] = static_cast<int64_t>(text_.size());
}

void dif_builder::branch(uint8_t op, label l)
{
	fixups_.emplace_back(text_.size(), l);
	text_.push_back(DIF_INSTR_BRANCH(op, 0));
}

uint32_t dif_builder::intern_int(uint64_t v)
{
	for (size_t i = 0; i < ints_.size(); i++)
		if (ints_[i] == v)
			return static_cast<uint32_t>(i);
	ints_.push_back(v);
	return static_cast<uint32_t>(ints_.size() - 1);
}

uint32_t dif_builder::intern_str(const std::string &s)
{
	auto it = str_index_.find(s);
	if (it != str_index_.end())
		return it->second;
	auto off = static_cast<uint32_t>(strs_.size());
	strs_ += s;
	strs_ += '\0';
	str_index_[s] = off;
	return off;
}

void dif_builder::setx(uint64_t v, uint8_t rd)
{
	emit(DIF_INSTR_SETX(intern_int(v), rd));
}

void dif_builder::setx_symbol(uint64_t v, uint8_t rd, reloc r)
{
	r.at = text_.size();
	relocs_.push_back(std::move(r));
	setx(v, rd);
}

void dif_builder::use_var(uint32_t id, uint8_t scope, uint8_t kind, const std::string &name,
			  dtrace_diftype_t type, bool mod)
{
	for (auto &v : vars_) {
		if (v.dtdv_id == id && v.dtdv_scope == scope) {
			if (mod)
				v.dtdv_flags |= DIFV_F_MOD;
			else
				v.dtdv_flags |= DIFV_F_REF;
			return;
		}
	}
	dtrace_difv_t v{};
	v.dtdv_name = intern_str(name);
	v.dtdv_id = id;
	v.dtdv_kind = kind;
	v.dtdv_scope = scope;
	v.dtdv_flags = mod ? DIFV_F_MOD : DIFV_F_REF;
	v.dtdv_type = type;
	vars_.push_back(v);
}

difo dif_builder::finish(dtrace_diftype_t rtype)
{
	for (auto [at, l] : fixups_) {
		// A label at the end (nothing placed after it) gets a nop.
		if (labels_[l] == static_cast<int64_t>(text_.size()))
			text_.push_back(DIF_INSTR_NOP);
		text_[at] |= static_cast<uint32_t>(labels_[l]);
	}
	difo d;
	d.text = text_;
	d.inttab = ints_;
	d.strtab = strs_;
	d.vartab = vars_;
	d.rtype = rtype;
	return d;
}

} // namespace dt::compiler
