// SPDX-License-Identifier: MIT
// A tracefs event's fields as a probe's arguments (pure; no I/O): what
// the sdt provider reports to probe_args() and how the bpf engine reads
// each one from the event's record (plugin.h DT_BPF_CTX_TP_RECORD with
// the ABI 1.6 argfmt).
//
//   format field                        args[i] (D type)    read as
//   ----------------------------------  ------------------  --------------------
//   pid_t prev_pid  (size 4, signed)    pid_t               4 bytes, sign-extended
//   char prev_comm[16]                  string              the field's address
//   __data_loc char[] name              string              record + (u32 & 0xffff)
//   __rel_loc char[] name               string              field end + (u32 & 0xffff)
//   u8 addr[6], __data_loc u64[] ips    u8 *, u64 *         as the two above
//   struct foo x    (size 12)           struct foo *        the field's address
//   an unaligned scalar                 T *                 the field's address
//
// A string is read from the record (kernel memory) up to its NUL or
// strsize, so args->prev_comm prints, compares and keys aggregations as
// any D string; a `const char *` field is a pointer as the kernel
// recorded it (the syscalls group's are user addresses: copyinstr()).
//
// The common_* fields (the record's first word) are not arguments; the
// others are, in the format's order, at most k_max_args of them (the
// engines' arg0..arg9). A type the compiler could not resolve (a name the
// running kernel's BTF lacks) is replaced: scalars by the integer of
// their size and sign, pointers by `void *` (`known` answers that).
#pragma once

#include "tracefs_format.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dt::plugin::sdt {

// The engines' argument count (DT_BPF_NARGS, dtrace.ko's nargs).
constexpr size_t k_max_args = 10;

struct record_arg {
	std::string type; // the D type args[i] has
	std::string name; // the field's name
	int32_t offset = 0;
	uint32_t fmt = 0; // plugin.h argfmt
};

struct record_layout {
	std::vector<record_arg> args; // at most k_max_args
	size_t fields = 0;	      // the event's fields, common_* aside
	uint32_t size = 0;	      // bytes of the fixed record (the last field's end)
};

// Whether the D compiler will know a type name ("pid_t", "struct sk_buff").
using type_known_fn = std::function<bool(std::string_view)>;

[[nodiscard]] record_layout layout_of(const event_format &f, const type_known_fn &known);

// The base type name of a C type: "const struct sk_buff *" -> "struct
// sk_buff", "unsigned int" -> "unsigned int". Pure helper for `known`.
[[nodiscard]] std::string base_type(std::string_view type);

// True for the C keywords a type may be made of (int, unsigned, _Bool ...).
[[nodiscard]] bool is_c_base_type(std::string_view base);

} // namespace dt::plugin::sdt
