// SPDX-License-Identifier: MIT
//
// compiler/btf/kernel_types.cc - BTF -> ctype (see kernel_types.hpp).
#include "kernel_types.hpp"

#include "../sema/types.hpp"
#include "util/kernel_btf.hpp"

#include <bpf/btf.h>

#include <cerrno>
#include <cstdlib>

namespace dt::compiler {

namespace {

const char *btf_path()
{
	const char *p = std::getenv("DTRACE_BTF_PATH");
	return p && *p ? p : kernel_btf::k_vmlinux;
}

} // namespace

kernel_types::kernel_types(const type_table &tt) : tt_(tt)
{
}

kernel_types::~kernel_types()
{
	// Break struct -> member pointer -> struct cycles.
	for (auto &[id, t] : cache_) {
		t->members.clear();
		t->lazy_members = nullptr;
	}
}

bool kernel_types::available()
{
	if (!tried_) {
		tried_ = true;
		btf_ = kernel_btf::open(btf_path());
	}
	return btf_ != nullptr;
}

type_ref kernel_types::find_tagged(const std::string &kw, const std::string &tag)
{
	if (tag.empty() || !available())
		return nullptr;
	if (kw == "enum") {
		int id = btf_->find(tag.c_str(), BTF_KIND_ENUM);
		if (id < 0)
			id = btf_->find(tag.c_str(), BTF_KIND_ENUM64);
		return id > 0 ? convert(static_cast<uint32_t>(id)) : nullptr;
	}
	bool is_union = kw == "union";
	int id = btf_->find(tag.c_str(), is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
	if (id > 0)
		return convert(static_cast<uint32_t>(id));
	// Only a forward declaration: an incomplete type.
	id = btf_->find(tag.c_str(), BTF_KIND_FWD);
	if (id > 0) {
		const struct btf_type *t = btf_->type(static_cast<uint32_t>(id));
		if (btf_kflag(t) == is_union)
			return convert(static_cast<uint32_t>(id));
	}
	return nullptr;
}

type_ref kernel_types::find_typedef(const std::string &name)
{
	if (name.empty() || !available())
		return nullptr;
	int id = btf_->find(name.c_str(), BTF_KIND_TYPEDEF);
	return id > 0 ? convert(static_cast<uint32_t>(id)) : nullptr;
}

type_ref kernel_types::find_symbol(const std::string &name)
{
	if (name.empty() || !available())
		return nullptr;
	int fid = btf_->find(name.c_str(), BTF_KIND_FUNC);
	if (fid > 0)
		return convert(static_cast<uint32_t>(fid));
	int vid = btf_->find(name.c_str(), BTF_KIND_VAR);
	if (vid <= 0)
		return nullptr;
	// Which section holds it: a per-CPU one has no single address.
	uint32_t n = btf_->type_count();
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf_->type(id);
		if (!t || !btf_is_datasec(t))
			continue;
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			if (v[i].type != static_cast<uint32_t>(vid))
				continue;
			if (std::string(btf_->name(t->name_off)) == ".data..percpu")
				return nullptr;
			break;
		}
	}
	return convert(btf_->type(static_cast<uint32_t>(vid))->type);
}

type_ref kernel_types::convert(uint32_t id)
{
	if (id == 0)
		return tt_.void_type();
	auto it = cache_.find(id);
	if (it != cache_.end())
		return it->second;
	const struct btf_type *t = btf_->type(id);
	if (!t)
		return tt_.void_type();
	std::string name = btf_->name(t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		uint8_t enc = btf_int_encoding(t);
		bool sign = (enc & BTF_INT_SIGNED) != 0;
		if (t->size <= 8 && (t->size & (t->size - 1)) == 0)
			return tt_.int_type(t->size, sign || name == "char");
		auto c = std::make_shared<ctype>();
		c->k = ctype::kind::integer;
		c->name = c->resolved = name;
		c->size = c->align = t->size;
		c->is_signed = sign;
		cache_[id] = c;
		return c;
	}
	case BTF_KIND_FLOAT: {
		auto f = tt_.named(t->size == 4	  ? "float"
				   : t->size == 8 ? "double"
						  : "long double");
		return f;
	}
	case BTF_KIND_PTR: return tt_.pointer_to(convert(t->type));
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		return tt_.array_of(convert(a->type), a->nelems);
	}
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG: return convert(t->type);
	case BTF_KIND_TYPEDEF: {
		type_ref target = convert(t->type);
		auto c = std::make_shared<ctype>(*target);
		c->name = name;
		c->typedefs.insert(c->typedefs.begin(), name);
		cache_[id] = c;
		return c;
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		auto c = std::make_shared<ctype>();
		c->k = ctype::kind::enum_;
		c->name = c->resolved = name.empty() ? "enum <anon>" : "enum " + name;
		c->size = c->align = t->size;
		c->is_signed = btf_kflag(t);
		uint16_t n = btf_vlen(t);
		if (btf_kind(t) == BTF_KIND_ENUM) {
			const struct btf_enum *e = btf_enum(t);
			for (uint16_t i = 0; i < n; i++)
				c->enumerators.emplace_back(btf_->name(e[i].name_off), e[i].val);
		} else {
			const struct btf_enum64 *e = btf_enum64(t);
			for (uint16_t i = 0; i < n; i++)
				c->enumerators.emplace_back(
					btf_->name(e[i].name_off),
					static_cast<int64_t>(btf_enum64_value(&e[i])));
		}
		cache_[id] = c;
		return c;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD: {
		auto c = std::make_shared<ctype>();
		c->k = ctype::kind::sou;
		bool is_union = btf_kind(t) == BTF_KIND_UNION ||
				(btf_kind(t) == BTF_KIND_FWD && btf_kflag(t));
		c->is_union = is_union;
		std::string kw = is_union ? "union " : "struct ";
		c->name = c->resolved = kw + (name.empty() ? "<anon>" : name);
		if (btf_kind(t) == BTF_KIND_FWD) {
			c->complete = false;
		} else {
			c->size = t->size;
			uint32_t a = btf_->align_of(id);
			c->align = a > 0 ? a : 1;
			c->lazy_members = [this, id](ctype &into) { load_members(id, into); };
		}
		cache_[id] = c;
		return c;
	}
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_FUNC: {
		auto c = std::make_shared<ctype>();
		c->k = ctype::kind::func;
		c->name = c->resolved = "<function>";
		c->size = 0;
		cache_[id] = c;
		return c;
	}
	default: return tt_.void_type();
	}
}

void kernel_types::flatten(uint32_t id, uint32_t base, ctype &into)
{
	const struct btf_type *t = btf_->type(id);
	const struct btf_member *m = btf_members(t);
	uint16_t n = btf_vlen(t);
	for (uint16_t i = 0; i < n; i++) {
		uint32_t bits = btf_member_bit_offset(t, i);
		uint32_t bf = btf_member_bitfield_size(t, i);
		if (bf == 0 && bits % 8 != 0)
			continue; // not at a byte: nothing C lays out so
		uint32_t off = base + bits / 8;
		std::string mname = btf_->name(m[i].name_off);
		if (mname.empty()) {
			// Anonymous struct/union: its members are the parent's.
			uint32_t inner = m[i].type;
			const struct btf_type *it = btf_->type(inner);
			while (it && (btf_is_mod(it) || btf_is_typedef(it))) {
				inner = it->type;
				it = btf_->type(inner);
			}
			if (it && btf_is_composite(it))
				flatten(inner, off, into);
			continue;
		}
		// A bit-field: bf bits from bit (bits % 8) of byte off.
		into.members.push_back({mname, convert(m[i].type), off, bf ? bits % 8 : 0, bf});
	}
}

void kernel_types::load_members(uint32_t id, ctype &into)
{
	if (btf_)
		flatten(id, 0, into);
}

} // namespace dt::compiler
