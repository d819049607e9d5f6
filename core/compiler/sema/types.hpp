// SPDX-License-Identifier: MIT
//
// compiler/sema/types.hpp - the D type system (illumos' CTF containers in
// miniature): integers of every width and signedness, pointers, arrays,
// the D string type, void, struct/union/enum (declared in D), typedefs.
//
// Types are immutable once built and shared (type_ref); a typedef is a
// copy of its target carrying its own name and the typedef chain. The
// table knows the C base types, the C99/kernel typedefs (int32_t, size_t,
// pid_t ...) and what D programs declare. Sizes follow LP64.
//
// Names the table does not know ("struct task_struct", "umode_t" in a
// provider's argument type) are looked up in the kernel's BTF
// (btf/kernel_types.hpp) before failing.
//
// Errors: fail(D_TYPE_ERR / D_DECL_* ...).
#pragma once

#include "../parse/ast.hpp"

#include <dtrace/program.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dt::compiler {

struct member {
	std::string name;
	type_ref type;
	uint32_t offset = 0; // bytes (a bit-field: the byte holding its first bit)
	// A bit-field: bit_size bits from bit bit_off (0-7, least significant
	// first) of the byte at offset. 0: an ordinary member.
	uint32_t bit_off = 0;
	uint32_t bit_size = 0;
};

struct ctype {
	enum class kind : uint8_t {
		void_,
		integer,
		floating,
		pointer,
		array,
		string,
		sou,
		enum_,
		func
	};
	kind k = kind::integer;
	std::string name;     // as D prints it: "int", "char *", "struct foo", "uint64_t"
	std::string resolved; // typedefs resolved ("unsigned long")
	std::vector<std::string> typedefs; // typedef chain, outermost first
	uint32_t size = 0;
	uint32_t align = 1;
	bool is_signed = false;
	bool is_union = false;
	bool complete = true;
	type_ref ref;	    // pointee / element
	uint32_t count = 0; // array elements
	// Filled on first find_member() when lazy_members is set (kernel
	// types from BTF, btf/kernel_types.hpp).
	mutable std::vector<member> members;
	mutable std::function<void(ctype &)> lazy_members;
	std::vector<std::pair<std::string, int64_t>> enumerators;
	// stack(), ustack(), sym() ... used as a value (aggregation key,
	// printf argument): recorded as value_type::kind rec_kind.
	bool is_record_func = false;
	value_type::kind rec_kind = value_type::kind::integer;
	uint32_t rec_frames = 0; // a ustack() key's frames (value_type::frames)

	[[nodiscard]] bool is_int() const { return k == kind::integer || k == kind::enum_; }
	[[nodiscard]] bool is_ptr() const { return k == kind::pointer; }
	[[nodiscard]] bool is_string() const { return k == kind::string; }
	// illumos dt_node_is_arith(): integers and enums. D has no floating-point
	// arithmetic: a float is bytes that printf() and trace() can show.
	[[nodiscard]] bool is_arith() const { return is_int(); }
	[[nodiscard]] bool is_scalar() const { return is_arith() || is_ptr(); }
	[[nodiscard]] bool is_void() const { return k == kind::void_; }
	[[nodiscard]] bool is_sou() const { return k == kind::sou; }
	[[nodiscard]] bool is_array() const { return k == kind::array; }
	// char * / char[] (printable with %s, convertible to string)
	[[nodiscard]] bool is_char_ptr_or_array() const;
	[[nodiscard]] const member *find_member(const std::string &n) const;
	// members, after loading them if they are lazy.
	[[nodiscard]] const std::vector<member> &all_members() const;
};

class kernel_types;

// D_DECL_INCOMPLETE unless an object of type t (a member or a variable
// called name) can be laid out: no forward-declared struct, union or enum.
void check_complete(const type_ref &t, const std::string &name, uint32_t line);

class type_table {
public:
	explicit type_table(uint32_t strsize);
	~type_table(); // breaks the cycles of self-referencing structs
	type_table(const type_table &) = delete;
	type_table &operator=(const type_table &) = delete;

	[[nodiscard]] type_ref int_type(uint32_t size, bool is_signed) const;
	[[nodiscard]] type_ref named(const std::string &n) const; // base or typedef; null if none
	[[nodiscard]] type_ref pointer_to(const type_ref &t) const;
	[[nodiscard]] type_ref array_of(const type_ref &t, uint32_t n) const;
	[[nodiscard]] type_ref string_type() const { return string_; }
	[[nodiscard]] type_ref void_type() const { return void_; }
	[[nodiscard]] uint32_t strsize() const { return strsize_; }

	// Resolve written specifiers + pointer/array suffixes; declares
	// struct/union/enum bodies on the way. eval: integer constant expressions.
	using const_eval = std::function<int64_t(expr &)>;
	type_ref resolve(decl_spec &spec, const const_eval &eval);
	type_ref apply(type_ref base, int ptrs, const std::vector<uint64_t> &dims) const;
	// c_header: a typedef of a file cpp included (-C), which may name again
	// what D defines (illumos keeps C's definitions apart, and looks them
	// up first): the header's type is the one the name then stands for.
	void add_typedef(const std::string &name, const type_ref &t, uint32_t line,
			 bool c_header = false);
	// Enumerators declared so far: name -> (value, enum type).
	[[nodiscard]] const std::map<std::string, std::pair<int64_t, type_ref>> &enumerators() const
	{
		return enumerators_;
	}
	// A type from a provider's argument description ("const char *",
	// "uint64_t", "struct file *"); unknown names become int64_t (and
	// unknown struct pointers void *).
	[[nodiscard]] type_ref parse_type_string(const std::string &s) const;

	// The kernel's types (BTF); lazily loaded.
	[[nodiscard]] kernel_types &kernel() const;

	// The record layout of a value of type t.
	[[nodiscard]] value_type value_of(const type_ref &t) const;
	[[nodiscard]] dtrace_diftype_t diftype(const type_ref &t) const;

private:
	std::map<std::string, type_ref> named_;
	std::map<std::string, std::shared_ptr<ctype>> sous_; // "struct foo", "union u", "enum e"
	std::map<std::string, std::pair<int64_t, type_ref>> enumerators_;
	type_ref string_, void_;
	uint32_t strsize_;
	mutable std::unique_ptr<kernel_types> kernel_;
};

} // namespace dt::compiler
