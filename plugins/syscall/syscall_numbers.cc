// SPDX-License-Identifier: MIT
// System call numbers by name: see syscall_numbers.hpp for the sources.
#include "syscall_numbers.hpp"

namespace dt::plugin::syscall {
namespace {

struct entry {
	std::string_view name;
	int64_t nr;
};

// From the build's <asm/unistd.h>, sorted by name (generated).
constexpr entry k_headers[] = {
#include "syscall_numbers.inc"
};

// Entry points whose tracefs event name is not their __NR_ name. These
// win over a header entry of the same name: sys_umount is umount2 even
// where an old one-argument __NR_umount (sys_oldumount) exists.
struct alias {
	std::string_view event, nr_name;
	bool only_if_absent; // sendfile64 is __NR_sendfile64 on 32-bit ABIs
};
constexpr alias k_aliases[] = {
	{"newstat", "stat", false},   {"newlstat", "lstat", false},
	{"newfstat", "fstat", false}, {"newuname", "uname", false},
	{"umount", "umount2", false}, {"sendfile64", "sendfile", true},
};

#if defined(__x86_64__) && !defined(__ILP32__)
// arch/x86/entry/syscalls/syscall_64.tbl (Linux 6.17): the "common" and
// "64" entries newer than many distributions' linux-libc-dev. Consulted
// only for names the headers lack.
constexpr entry k_newer[] = {
	{"uretprobe", 335},	    {"uprobe", 336},	       {"memfd_secret", 447},
	{"process_mrelease", 448},  {"futex_waitv", 449},      {"set_mempolicy_home_node", 450},
	{"cachestat", 451},	    {"fchmodat2", 452},	       {"map_shadow_stack", 453},
	{"futex_wake", 454},	    {"futex_wait", 455},       {"futex_requeue", 456},
	{"statmount", 457},	    {"listmount", 458},	       {"lsm_get_self_attr", 459},
	{"lsm_set_self_attr", 460}, {"lsm_list_modules", 461}, {"mseal", 462},
	{"setxattrat", 463},	    {"getxattrat", 464},       {"listxattrat", 465},
	{"removexattrat", 466},	    {"open_tree_attr", 467},   {"file_getattr", 468},
	{"file_setattr", 469},
};
#else
constexpr entry k_newer[] = {{"", -1}};
#endif

std::optional<int64_t> from_headers(std::string_view name)
{
	// The generated table is sorted by name (CMake's list(SORT), byte
	// order); a linear search keeps this independent of that detail.
	for (const entry &e : k_headers)
		if (e.name == name)
			return e.nr;
	return std::nullopt;
}

} // namespace

std::optional<int64_t> syscall_number(std::string_view name)
{
	if (name.empty())
		return std::nullopt;
	for (const alias &a : k_aliases) {
		if (a.event != name)
			continue;
		if (a.only_if_absent)
			if (auto nr = from_headers(name))
				return nr;
		name = a.nr_name;
		break;
	}
	if (auto nr = from_headers(name))
		return nr;
	for (const entry &e : k_newer)
		if (e.name == name && e.nr >= 0)
			return e.nr;
	return std::nullopt;
}

} // namespace dt::plugin::syscall
