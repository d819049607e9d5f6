// SPDX-License-Identifier: MIT
//
// compiler/btf/kernel_types.hpp - kernel types from BTF (the Linux
// counterpart of illumos' kernel CTF container "genunix"/"unix").
//
// When the D type table meets a struct/union/enum tag or a typedef name
// it does not know, it asks kernel_types, which lazily loads the
// running kernel's BTF (/sys/kernel/btf/vmlinux, or $DTRACE_BTF_PATH
// when set: tests point it at a missing file to see the no-BTF path)
// and converts the type to the compiler's ctype:
//   ints (size, sign) -> the table's C base types; pointers, arrays,
//   floats, enums (enumerators kept in the type, not made D
//   identifiers), typedefs (a named copy, as type_table does), struct and
//   union with byte offsets. Members are converted on first use
//   (ctype::find_member), so a pointer to a huge struct costs nothing.
//   Anonymous struct/union members are flattened into their parent with
//   their real offsets. Bit-field members carry their bit offset and
//   width (types.hpp member); codegen reads them with a shift and mask.
//   Function prototypes become opaque (kind func, size 0).
// Not found (or no BTF at all): null; the caller gives the normal D
// diagnostic. The BTF is util/kernel_btf.hpp's, mapped once per process
// and read only as far as the types asked for.
#pragma once

#include "../parse/ast.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace dt {
class kernel_btf;
}

namespace dt::compiler {

class type_table;

class kernel_types {
public:
	explicit kernel_types(const type_table &tt);
	~kernel_types();
	kernel_types(const kernel_types &) = delete;
	kernel_types &operator=(const kernel_types &) = delete;

	// Is kernel BTF there? (maps it and checks its header on first call)
	bool available();
	// "struct"/"union"/"enum" + tag, or a typedef name; null if unknown.
	type_ref find_tagged(const std::string &kw, const std::string &tag);
	type_ref find_typedef(const std::string &name);
	// The type of kernel symbol `name`: its VAR's type (a global
	// variable; per-CPU variables, whose address is an offset, are not
	// symbols D can read), or a function type for a FUNC. Null if BTF
	// does not describe it.
	type_ref find_symbol(const std::string &name);

private:
	type_ref convert(uint32_t id);
	void load_members(uint32_t id, ctype &into);
	void flatten(uint32_t id, uint32_t base, ctype &into);

	const type_table &tt_;
	const kernel_btf *btf_ = nullptr; // kept by kernel_btf::open()
	bool tried_ = false;
	std::map<uint32_t, std::shared_ptr<ctype>> cache_;
};

} // namespace dt::compiler
