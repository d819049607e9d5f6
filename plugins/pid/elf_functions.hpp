// SPDX-License-Identifier: MIT
// The functions of one ELF object, read with libelf: .symtab if the
// object has one, else .dynsym; STT_FUNC and STT_GNU_IFUNC symbols with a
// size and a defined section. Each name is given once per object (the
// first symbol of that name wins: a static function may be defined in
// several translation units).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

struct Elf;

namespace dt::plugin::pid {

struct elf_function {
	const char *name;
	uint64_t file_offset; // of the first instruction in the object file
	uint64_t size;
	const uint8_t *bytes; // the function's `size` bytes (mapped file)
};

class elf_object {
public:
	elf_object() = default;
	elf_object(const elf_object &) = delete;
	elf_object &operator=(const elf_object &) = delete;
	~elf_object();

	// Open `path`. Returns 0, or a negative errno with `why` set
	// (-ENOEXEC: not an ELF executable or shared object).
	[[nodiscard]] int open(const std::string &path, std::string &why);

	// ELF e_machine (EM_X86_64 ...).
	[[nodiscard]] unsigned machine() const { return machine_; }

	// Call `cb` for each function whose name `want` accepts, until it
	// returns true. `want` sees every candidate's name before anything
	// else is done for it, so a plain name costs one pass of strcmp.
	void for_each_function(const std::function<bool(const char *)> &want,
			       const std::function<bool(const elf_function &)> &cb) const;

private:
	int fd_ = -1;
	Elf *elf_ = nullptr;
	unsigned machine_ = 0;
	const uint8_t *raw_ = nullptr;
	size_t raw_size_ = 0;
};

} // namespace dt::plugin::pid
