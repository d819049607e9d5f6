// SPDX-License-Identifier: MIT
//
// util/kernel_btf.hpp - the running kernel's BTF, mapped and read in
// place: what the compiler (kernel types, btf/kernel_types.hpp) and the
// bpf engine (task_struct offsets) ask of /sys/kernel/btf/vmlinux.
//
//   open(path)        once per path and process: mmap() the file (Linux
//                     6.16+ maps /sys/kernel/btf/vmlinux; older kernels
//                     and regular files that refuse are read once), check
//                     the header. Nothing else is read: a program that
//                     never names a kernel type pays this and no more.
//   type(id), find()  the type section is walked as far as a question
//                     needs (where each type starts, the ids of each
//                     kind), and never again: find() compares names within
//                     one kind, among the types walked so far, then walks
//                     on until the name turns up.
//
// Why not libbpf's btf__parse(): it reads the 5-6 MB file in 4 KiB
// pieces (sysfs hands out no more per read()), copies it twice and
// checks every type before the first question; that was most of a
// one-liner's startup. The layout read here is the kernel's
// (Documentation/bpf/btf.rst); records are libbpf's <bpf/btf.h> structs
// and inline accessors, so callers keep using btf_kind(), btf_members()...
//
// Instances live until the process exits (open() keeps them) and are
// safe to use from several threads.
#pragma once

#include <linux/btf.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dt {

class kernel_btf {
public:
	// The running kernel's BTF file.
	static constexpr const char *k_vmlinux = "/sys/kernel/btf/vmlinux";

	// The BTF at `path`, or null when it is missing, unreadable or not
	// BTF (a failure is tried again on the next call).
	[[nodiscard]] static const kernel_btf *open(const std::string &path);

	// Number of type ids, void (0) included; 0 when the type section is
	// malformed.
	[[nodiscard]] uint32_t type_count() const;
	// The type with this id; null for 0 (void) and ids out of range.
	[[nodiscard]] const struct btf_type *type(uint32_t id) const;
	// A string of the string section; "" when out of range.
	[[nodiscard]] const char *name(uint32_t off) const;
	// The first type of kind BTF_KIND_* named `name`, or -1.
	[[nodiscard]] int32_t find(const char *name, uint32_t kind) const;
	// The type's alignment in bytes (libbpf's btf__align_of() rule: a
	// struct whose members sit off their alignment is packed, 1); 0 when
	// it has none (functions, void).
	[[nodiscard]] uint32_t align_of(uint32_t id) const;

	~kernel_btf();
	kernel_btf(const kernel_btf &) = delete;
	kernel_btf &operator=(const kernel_btf &) = delete;

private:
	kernel_btf() = default;
	[[nodiscard]] bool check_header();
	bool step() const; // walk one more record (lock_ held)
	[[nodiscard]] const struct btf_type *record(uint32_t id) const; // walked id

	static constexpr uint32_t k_nkinds = 32; // btf_kind() is 5 bits

	const unsigned char *data_ = nullptr;
	size_t size_ = 0;
	bool mapped_ = false;			// else data_ is copy_'s
	std::unique_ptr<unsigned char[]> copy_; // when mmap() is refused
	const unsigned char *types_ = nullptr;
	uint32_t types_len_ = 0;
	const char *strs_ = nullptr;
	uint32_t strs_len_ = 0;

	// The walk so far, under lock_.
	enum class walk { partial, done, bad };
	mutable std::mutex lock_;
	mutable walk state_ = walk::partial;
	mutable size_t walked_ = 0;			      // bytes of the type section
	mutable std::vector<uint32_t> offs_{0};		      // by id; offs_[0] for void
	mutable std::vector<std::vector<uint32_t>> by_kind_ = // ids of each kind
		std::vector<std::vector<uint32_t>>(k_nkinds);
};

} // namespace dt
