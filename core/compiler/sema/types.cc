// SPDX-License-Identifier: MIT
//
// compiler/sema/types.cc - the D type table (see types.hpp).
#include "types.hpp"

#include "../btf/kernel_types.hpp"
#include "../diag.hpp"

#include <algorithm>
#include <sstream>

namespace dt::compiler {

namespace {

constexpr uint8_t k_ctf_integer = 1;
constexpr uint8_t k_ctf_float = 2;
constexpr uint8_t k_ctf_pointer = 3;
constexpr uint8_t k_ctf_array = 4;
constexpr uint8_t k_ctf_struct = 6;
constexpr uint8_t k_ctf_union = 7;
constexpr uint8_t k_ctf_enum = 8;

std::shared_ptr<ctype> make_int(const std::string &name, uint32_t size, bool sign)
{
	auto t = std::make_shared<ctype>();
	t->k = ctype::kind::integer;
	t->name = t->resolved = name;
	t->size = t->align = size;
	t->is_signed = sign;
	return t;
}

std::string ptr_name(const std::string &base)
{
	if (!base.empty() && base.back() == '*')
		return base + "*";
	return base + " *";
}

} // namespace

bool ctype::is_char_ptr_or_array() const
{
	if ((k != kind::pointer && k != kind::array) || !ref)
		return false;
	return ref->k == kind::integer && ref->size == 1;
}

const std::vector<member> &ctype::all_members() const
{
	if (lazy_members) {
		auto load = std::move(lazy_members);
		lazy_members = nullptr;
		load(const_cast<ctype &>(*this));
	}
	return members;
}

const member *ctype::find_member(const std::string &n) const
{
	for (const auto &m : all_members())
		if (m.name == n)
			return &m;
	// Anonymous struct/union members.
	for (const auto &m : members) {
		if (m.name.empty() && m.type && m.type->is_sou()) {
			if (const member *inner = m.type->find_member(n))
				return inner; // offsets of anonymous members start at 0 here
		}
	}
	return nullptr;
}

type_table::type_table(uint32_t strsize) : strsize_(strsize)
{
	struct base {
		const char *name;
		uint32_t size;
		bool sign;
	};
	static const base bases[] = {
		{"char", 1, true},
		{"signed char", 1, true},
		{"unsigned char", 1, false},
		{"short", 2, true},
		{"unsigned short", 2, false},
		{"int", 4, true},
		{"unsigned int", 4, false},
		{"long", 8, true},
		{"unsigned long", 8, false},
		{"long long", 8, true},
		{"unsigned long long", 8, false},
		{"_Bool", 1, false},
	};
	for (const auto &b : bases)
		named_[b.name] = make_int(b.name, b.size, b.sign);
	for (auto [n, sz] : {std::pair{"float", 4u}, {"double", 8u}, {"long double", 16u}}) {
		auto f = std::make_shared<ctype>();
		f->k = ctype::kind::floating;
		f->name = f->resolved = n;
		f->size = f->align = sz;
		f->is_signed = true;
		named_[n] = f;
	}
	auto v = std::make_shared<ctype>();
	v->k = ctype::kind::void_;
	v->name = v->resolved = "void";
	v->size = 0;
	void_ = v;
	named_["void"] = v;
	auto s = std::make_shared<ctype>();
	s->k = ctype::kind::string;
	s->name = s->resolved = "string";
	s->size = strsize;
	s->align = 1;
	string_ = s;
	named_["string"] = s;

	struct td {
		const char *name;
		const char *target;
	};
	static const td tds[] = {
		{"int8_t", "signed char"},
		{"int16_t", "short"},
		{"int32_t", "int"},
		{"int64_t", "long"},
		{"uint8_t", "unsigned char"},
		{"uint16_t", "unsigned short"},
		{"uint32_t", "unsigned int"},
		{"uint64_t", "unsigned long"},
		{"intptr_t", "long"},
		{"uintptr_t", "unsigned long"},
		{"size_t", "unsigned long"},
		{"ssize_t", "long"},
		{"off_t", "long"},
		{"off64_t", "long"},
		{"loff_t", "long"},
		{"pid_t", "int"},
		{"uid_t", "unsigned int"},
		{"gid_t", "unsigned int"},
		{"id_t", "int"},
		{"time_t", "long"},
		{"uchar_t", "unsigned char"},
		{"ushort_t", "unsigned short"},
		{"uint_t", "unsigned int"},
		{"ulong_t", "unsigned long"},
		{"u_longlong_t", "unsigned long long"},
		{"longlong_t", "long long"},
		{"dev_t", "unsigned long"},
		{"mode_t", "unsigned int"},
		{"ino_t", "unsigned long"},
		{"clock_t", "long"},
		{"boolean_t", "int"},
		{"processorid_t", "int"},
		{"psetid_t", "int"},
		{"zoneid_t", "int"},
		{"hrtime_t", "long long"},
		{"socklen_t", "unsigned int"},
		{"nlink_t", "unsigned long"},
		{"daddr_t", "long"},
		{"major_t", "unsigned int"},
		{"minor_t", "unsigned int"},
		{"bool", "_Bool"},
		{"__u8", "unsigned char"},
		{"__u16", "unsigned short"},
		{"__u32", "unsigned int"},
		{"__u64", "unsigned long long"},
		{"__s8", "signed char"},
		{"__s16", "short"},
		{"__s32", "int"},
		{"__s64", "long long"},
		{"u8", "unsigned char"},
		{"u16", "unsigned short"},
		{"u32", "unsigned int"},
		{"u64", "unsigned long long"},
		{"s8", "signed char"},
		{"s16", "short"},
		{"s32", "int"},
		{"s64", "long long"},
		{"pgid_t", "int"},
		{"key_t", "int"},
		{"blkcnt_t", "long"},
	};
	for (const auto &d : tds)
		add_typedef(d.name, named_.at(d.target), 0);
	add_typedef("caddr_t", pointer_to(named_.at("char")), 0);
	// GCC's built-in type behind va_list (C headers name it, -C): opaque
	// to D, of the ABI's size and alignment (x86-64: an array of one
	// 24-byte struct; AArch64: a 32-byte struct).
#if defined(__aarch64__)
	add_typedef("__builtin_va_list", array_of(pointer_to(void_), 4), 0);
#else
	add_typedef("__builtin_va_list", array_of(pointer_to(void_), 3), 0);
#endif
}

type_table::~type_table()
{
	for (auto &[k, t] : sous_)
		t->members.clear();
	kernel_.reset();
}

kernel_types &type_table::kernel() const
{
	if (!kernel_)
		kernel_ = std::make_unique<kernel_types>(*this);
	return *kernel_;
}

type_ref type_table::int_type(uint32_t size, bool is_signed) const
{
	switch (size) {
	case 1: return named_.at(is_signed ? "char" : "unsigned char");
	case 2: return named_.at(is_signed ? "short" : "unsigned short");
	case 4: return named_.at(is_signed ? "int" : "unsigned int");
	default: return named_.at(is_signed ? "long" : "unsigned long");
	}
}

type_ref type_table::named(const std::string &n) const
{
	auto it = named_.find(n);
	return it == named_.end() ? nullptr : it->second;
}

type_ref type_table::pointer_to(const type_ref &t) const
{
	auto p = std::make_shared<ctype>();
	p->k = ctype::kind::pointer;
	p->name = ptr_name(t->name);
	p->resolved = ptr_name(t->resolved);
	p->size = p->align = 8;
	p->ref = t;
	return p;
}

type_ref type_table::array_of(const type_ref &t, uint32_t n) const
{
	auto a = std::make_shared<ctype>();
	a->k = ctype::kind::array;
	a->name = t->name + " [" + std::to_string(n) + "]";
	a->resolved = t->resolved + " [" + std::to_string(n) + "]";
	a->size = t->size * n;
	a->align = t->align;
	a->ref = t;
	a->count = n;
	return a;
}

type_ref type_table::apply(type_ref base, int ptrs, const std::vector<uint64_t> &dims) const
{
	for (int i = 0; i < ptrs; i++)
		base = pointer_to(base);
	for (auto it = dims.rbegin(); it != dims.rend(); ++it)
		base = array_of(base, static_cast<uint32_t>(*it));
	return base;
}

void type_table::add_typedef(const std::string &name, const type_ref &t, uint32_t line,
			     bool c_header)
{
	auto it = named_.find(name);
	if (it != named_.end() && line != 0 && !c_header) {
		if (it->second->resolved == t->resolved)
			return;
		fail(tag::D_DECL_IDRED, line, "identifier redeclared: " + name);
	}
	auto c = std::make_shared<ctype>(*t);
	c->name = name;
	c->typedefs.insert(c->typedefs.begin(), name);
	named_[name] = c;
}

void check_complete(const type_ref &t, const std::string &name, uint32_t line)
{
	const ctype *b = t.get();
	while (b->is_array())
		b = b->ref.get();
	if ((b->is_sou() || b->k == ctype::kind::enum_) && !b->complete)
		fail(tag::D_DECL_INCOMPLETE, line,
		     "incomplete struct/union/enum " + b->name + ": " + name);
}

type_ref type_table::resolve(decl_spec &spec, const const_eval &eval)
{
	if (!spec.typedef_name.empty()) {
		// A typedef name may be scoped by its module, D`name (as tags are).
		std::string n = spec.typedef_name.substr(spec.typedef_name.rfind('`') + 1);
		auto t = named(n);
		if (!t)
			t = kernel().find_typedef(n);
		if (!t)
			fail(tag::D_TYPE_ERR, spec.line,
			     "failed to resolve type " + spec.typedef_name);
		return t;
	}
	if (!spec.sou.empty()) {
		std::string key = spec.sou + " " + spec.tag;
		std::shared_ptr<ctype> t;
		if (!spec.tag.empty()) {
			auto it = sous_.find(key);
			// A tag scoped by its module, struct D`s (illumos: D, C or a
			// kernel module): the program's type of that tag if it has one.
			size_t bq = spec.tag.rfind('`');
			if (it == sous_.end() && bq != std::string::npos && !spec.has_body)
				it = sous_.find(spec.sou + " " + spec.tag.substr(bq + 1));
			if (it != sous_.end())
				t = it->second;
		}
		// A header's definition of a tag D has (illumos: C's definitions
		// are kept apart and looked up first) stands for the tag after it.
		if (spec.has_body && t && t->complete && spec.c_header)
			t = nullptr;
		if (spec.has_body && t && t->complete)
			fail(tag::D_DECL_TYPERED, spec.line, "type redeclared: " + key);
		// Not declared in D: the kernel's (BTF) type of that name.
		if (!t && !spec.has_body && !spec.tag.empty())
			if (auto kt = kernel().find_tagged(spec.sou, spec.tag))
				return kt;
		if (!t) {
			t = std::make_shared<ctype>();
			t->name = t->resolved = spec.tag.empty() ? spec.sou + " <anon>" : key;
			t->complete = false;
			if (spec.sou == "enum") {
				t->k = ctype::kind::enum_;
				t->size = t->align = 4;
				t->is_signed = true;
			} else {
				t->k = ctype::kind::sou;
				t->is_union = spec.sou == "union";
			}
			if (!spec.tag.empty())
				sous_[key] = t;
		}
		if (!spec.has_body)
			return t;
		if (spec.sou == "enum") {
			int64_t next = 0;
			size_t ix = 0;
			for (auto &[n, v] : spec.enumerators) {
				uint32_t eline = ix < spec.enumerator_lines.size()
							 ? spec.enumerator_lines[ix]
							 : spec.line;
				ix++;
				if (v) {
					try {
						next = eval(*v);
					} catch (const d_error &e) {
						if (e.which != tag::D_DECL_ARRNULL)
							throw;
						fail(tag::D_DECL_ENCONST, eline,
						     "enumerator '" + n +
							     "' must be assigned to an integral "
							     "constant expression");
					}
				}
				if (next > INT32_MAX || next < INT32_MIN)
					fail(tag::D_DECL_ENOFLOW, eline,
					     "enumerator '" + n +
						     "' value overflows INT_MAX (2147483647)");
				// illumos dt_decl_enumerator(): CTF refuses a second
				// member of one name (ctf_add_enumerator()) before the
				// name is checked against the other identifiers.
				for (const auto &[prev, pv] : t->enumerators)
					if (prev == n)
						fail(tag::D_UNKNOWN, eline,
						     "failed to define enumerator '" + n +
							     "': Duplicate member or variable name");
				// illumos dt_decl_enumerator(): a header's
				// enumerator that D already has as a name is
				// kept in its type, and D's name wins.
				bool taken = enumerators_.count(n) || named_.count(n);
				if (taken && !spec.c_header)
					fail(tag::D_DECL_IDRED, eline,
					     "identifier redeclared: " + n);
				t->enumerators.emplace_back(n, next);
				if (!taken)
					enumerators_[n] = {next, t};
				next++;
			}
			t->complete = true;
			return t;
		}
		// bits: the next free bit of a struct. Bit-fields are laid out as
		// the C ABI (SysV x86-64) does, which is also how the kernel's
		// BTF describes them: packed into units of their type's size,
		// a field never straddling a unit boundary.
		uint64_t bits = 0;
		uint32_t align = 1, size = 0;
		for (auto &[ms, ds] : spec.members) {
			type_ref mbase = resolve(*ms, eval);
			for (auto &d : ds) {
				std::vector<uint64_t> dims;
				for (auto &de : d.dims)
					dims.push_back(de ? static_cast<uint64_t>(eval(*de)) : 0);
				type_ref mt = apply(mbase, d.ptrs, dims);
				if (mt->is_void())
					fail(tag::D_DECL_VOIDOBJ, d.line,
					     "cannot have void object: " + d.name);
				check_complete(mt, d.name, d.line);
				for (const auto &m : t->members)
					if (!d.name.empty() && m.name == d.name)
						fail(tag::D_DECL_MNAME, d.line,
						     "duplicate member name: " + d.name);
				uint32_t a = std::max<uint32_t>(mt->align, 1);
				if (d.bitfield) {
					// illumos dt_decl_member()'s checks.
					std::string idname = d.name.empty() ? "(anon)" : d.name;
					if (!mt->is_int())
						fail(tag::D_DECL_BFTYPE, d.line,
						     "invalid type for bit-field: " + idname);
					int64_t w = eval(*d.bitfield);
					if (w == 0 && d.name.empty()) {
						uint64_t unit = uint64_t{mt->size} * 8;
						bits = (bits + unit - 1) / unit * unit;
						continue;
					}
					if (w <= 0)
						fail(tag::D_DECL_BFCONST, d.line,
						     "positive integral constant expression "
						     "expected as bit-field size");
					if (static_cast<uint64_t>(w) > uint64_t{mt->size} * 8)
						fail(tag::D_DECL_BFSIZE, d.line,
						     "bit-field too big for type: " + idname);
					uint64_t unit = uint64_t{mt->size} * 8;
					uint64_t at = t->is_union ? 0 : bits;
					if (at / unit != (at + static_cast<uint64_t>(w) - 1) / unit)
						at = (at + unit - 1) / unit * unit;
					member m{d.name, mt, static_cast<uint32_t>(at / 8),
						 static_cast<uint32_t>(at % 8),
						 static_cast<uint32_t>(w)};
					if (!d.name.empty())
						t->members.push_back(m);
					uint32_t end = static_cast<uint32_t>(
						(at + static_cast<uint64_t>(w) + 7) / 8);
					if (t->is_union)
						size = std::max(size, end);
					else
						bits = at + static_cast<uint64_t>(w);
					if (!d.name.empty())
						align = std::max(align, a);
					continue;
				}
				if (t->is_union) {
					t->members.push_back({d.name, mt, 0});
					size = std::max(size, mt->size);
				} else {
					uint64_t off = (bits + 7) / 8;
					off = (off + a - 1) / a * a;
					t->members.push_back(
						{d.name, mt, static_cast<uint32_t>(off)});
					bits = (off + mt->size) * 8;
				}
				align = std::max(align, a);
			}
		}
		if (!t->is_union)
			size = static_cast<uint32_t>((bits + 7) / 8);
		t->align = align;
		t->size = (size + align - 1) / align * align;
		t->complete = true;
		// Typedefs made while it was a forward declaration now see it whole.
		for (auto &[n, nt] : named_) {
			if (nt->k == ctype::kind::sou && !nt->complete &&
			    nt->resolved == t->resolved) {
				auto c = std::make_shared<ctype>(*t);
				c->name = nt->name;
				c->typedefs = nt->typedefs;
				nt = c;
			}
		}
		return t;
	}
	// Base words: canonical C spelling.
	int n_long = 0, n_short = 0, n_signed = 0, n_unsigned = 0, n_char = 0, n_int = 0;
	std::string other;
	for (const auto &w : spec.words) {
		if (w == "long")
			n_long++;
		else if (w == "short")
			n_short++;
		else if (w == "signed")
			n_signed++;
		else if (w == "unsigned")
			n_unsigned++;
		else if (w == "char")
			n_char++;
		else if (w == "int")
			n_int++;
		else if (!other.empty())
			fail(tag::D_DECL_COMBO, spec.line, "invalid type combination");
		else
			other = w;
	}
	if (!other.empty()) {
		if (other == "double" && n_long == 1)
			return named_.at("long double");
		if (other == "void" && (n_long || n_short || n_signed || n_unsigned))
			fail(tag::D_DECL_VOIDATTR, spec.line,
			     "invalid type declaration: attributes may not be used with void type");
		if (n_long && other != "float" && other != "double" && !n_char && !n_int)
			fail(tag::D_DECL_LONGINT, spec.line,
			     "invalid type declaration: long and long long may only be used with "
			     "integer or floating-point type");
		if (n_long || n_short || n_signed || n_unsigned || n_char || n_int)
			fail(tag::D_DECL_COMBO, spec.line, "invalid type combination");
		return named_.at(other);
	}
	// illumos dt_decl_attr() takes short with long; the type they name
	// (dt_decl_type() puts the words in its own order) is then not found.
	if (n_short && n_long && !n_char && n_short == 1 && n_long <= 2 &&
	    !(n_signed && n_unsigned)) {
		std::string name = std::string(n_signed ? "signed " : "") +
				   (n_unsigned ? "unsigned " : "") + "short " +
				   (n_long == 2 ? "long long " : "long ") + (n_int ? "int" : "");
		fail(tag::D_UNKNOWN, spec.line,
		     "failed to resolve type " + name + ": Unknown type name");
	}
	if ((n_signed && n_unsigned) || (n_short && n_long) ||
	    (n_char && (n_short || n_long || n_int)) || n_long > 2 || n_int > 1 || n_char > 1)
		fail(tag::D_DECL_COMBO, spec.line, "invalid type combination");
	std::string base = n_char	 ? "char"
			   : n_short	 ? "short"
			   : n_long == 2 ? "long long"
			   : n_long	 ? "long"
					 : "int";
	if (n_unsigned)
		return named_.at("unsigned " + base);
	if (n_signed && n_char)
		return named_.at("signed char");
	return named_.at(base);
}

type_ref type_table::parse_type_string(const std::string &s) const
{
	std::istringstream in(s);
	std::vector<std::string> words;
	std::string w;
	int ptrs = 0;
	std::string norm;
	for (char c : s) {
		if (c == '*') {
			norm += " * ";
		} else {
			norm += c;
		}
	}
	std::istringstream in2(norm);
	while (in2 >> w) {
		if (w == "*") {
			ptrs++;
			continue;
		}
		if (w == "const" || w == "volatile" || w == "restrict" || w == "userland" ||
		    w == "__user")
			continue;
		words.push_back(w);
	}
	type_ref base;
	if (words.size() == 2 &&
	    (words[0] == "struct" || words[0] == "union" || words[0] == "enum")) {
		auto it = sous_.find(words[0] + " " + words[1]);
		if (it != sous_.end()) {
			base = it->second;
		} else if (auto kt = kernel().find_tagged(words[0], words[1])) {
			base = kt;
		} else {
			auto t = std::make_shared<ctype>();
			t->k = words[0] == "enum" ? ctype::kind::enum_ : ctype::kind::sou;
			t->name = t->resolved = words[0] + " " + words[1];
			t->complete = false;
			t->size = words[0] == "enum" ? 4 : 0;
			base = t;
		}
	} else if (words.size() == 1 && named(words[0])) {
		base = named(words[0]);
	} else if (auto kt = words.size() == 1 ? kernel().find_typedef(words[0]) : nullptr) {
		base = kt;
	} else {
		decl_spec spec;
		spec.words = words;
		try {
			base = const_cast<type_table *>(this)->resolve(spec, {});
		} catch (const d_error &) {
			base = named_.at("long");
		}
	}
	for (int i = 0; i < ptrs; i++)
		base = pointer_to(base);
	return base;
}

value_type type_table::value_of(const type_ref &t) const
{
	value_type v;
	v.name = t->name;
	if (t->is_record_func) {
		v.k = t->rec_kind;
		v.size = t->size;
		v.is_signed = false;
		v.frames = t->rec_frames;
		return v;
	}
	switch (t->k) {
	case ctype::kind::integer:
	case ctype::kind::enum_:
		v.k = value_type::kind::integer;
		v.size = t->size;
		v.is_signed = t->is_signed;
		break;
	case ctype::kind::pointer:
		v.k = value_type::kind::pointer;
		v.size = 8;
		v.is_signed = false;
		break;
	case ctype::kind::string:
		v.k = value_type::kind::string;
		v.size = strsize_;
		v.is_signed = false;
		break;
	default:
		v.k = value_type::kind::bytes;
		v.size = t->size;
		v.is_signed = false;
		break;
	}
	return v;
}

dtrace_diftype_t type_table::diftype(const type_ref &t) const
{
	dtrace_diftype_t d{};
	switch (t->k) {
	case ctype::kind::string:
		d.dtdt_kind = DIF_TYPE_STRING;
		d.dtdt_flags = DIF_TF_BYREF;
		d.dtdt_size = strsize_;
		break;
	case ctype::kind::integer:
		d.dtdt_ckind = k_ctf_integer;
		d.dtdt_size = t->size;
		break;
	case ctype::kind::enum_:
		d.dtdt_ckind = k_ctf_enum;
		d.dtdt_size = t->size;
		break;
	case ctype::kind::floating:
		// By reference like a struct: D has no floating-point registers, a
		// float is bytes that only printf()/trace() interpret.
		d.dtdt_ckind = k_ctf_float;
		d.dtdt_flags = DIF_TF_BYREF;
		d.dtdt_size = t->size;
		break;
	case ctype::kind::pointer:
		d.dtdt_ckind = k_ctf_pointer;
		d.dtdt_size = 8;
		break;
	case ctype::kind::array:
		d.dtdt_ckind = k_ctf_array;
		d.dtdt_flags = DIF_TF_BYREF;
		d.dtdt_size = t->size;
		break;
	case ctype::kind::sou:
		d.dtdt_ckind = t->is_union ? k_ctf_union : k_ctf_struct;
		d.dtdt_flags = DIF_TF_BYREF;
		d.dtdt_size = t->size;
		break;
	default:
		d.dtdt_ckind = k_ctf_integer;
		d.dtdt_size = 0;
		break;
	}
	return d;
}

} // namespace dt::compiler
