// SPDX-License-Identifier: MIT
// Parsing a tracefs event's `format` file (pure; no I/O), for the syscall
// and sdt providers:
//
//   name: sys_enter_openat
//   ID: 782
//   format:
//   	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
//   	...
//
//   	field:int __syscall_nr;	offset:8;	size:4;	signed:1;
//   	field:const char * filename;	offset:24;	size:8;	signed:0;
//
//   print fmt: "..."
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dt::plugin {

struct format_field {
	std::string type;    // the C type as written ("const char *", "umode_t")
	std::string name;    // "filename"
	uint32_t offset = 0; // in the event's record
	uint32_t size = 0;   // bytes (0: not given)
	bool is_signed = false;
};

struct event_format {
	std::string name; // "sys_enter_openat"
	uint64_t id = 0;
	bool has_id = false;
	std::vector<format_field> fields; // in file order, common_* included
};

// Split one field declaration ("const char * filename", "char comm[16]")
// into its type and name. An array's bounds stay with the type
// ("char[16]"). False if there is no name to split off.
[[nodiscard]] bool split_field_decl(std::string_view decl, format_field &out);

// Parse a whole format file. False if it has no `format:` section.
[[nodiscard]] bool parse_event_format(std::string_view text, event_format &out);

// The system call's arguments: the fields after __syscall_nr (empty if
// the event has no such field).
[[nodiscard]] std::vector<format_field> syscall_args(const event_format &f);

} // namespace dt::plugin
