// SPDX-License-Identifier: MIT
// System call numbers by the name the syscall provider uses (the tracefs
// event's name, sys_enter_<name>), for the bpf engine's sys_enter and
// sys_exit raw tracepoints, which are filtered by number.
//
// Sources, in order:
//   1. the kernel's name for the entry point, where it differs from the
//      __NR_ name (x86_64: newstat is __NR_stat, newuname __NR_uname,
//      umount __NR_umount2, sendfile64 __NR_sendfile);
//   2. <asm/unistd.h> of the build (linux-libc-dev), read at build time
//      by gen_syscall_numbers.cmake;
//   3. on x86_64 only, the system calls added to
//      arch/x86/entry/syscalls/syscall_64.tbl after the build's headers
//      (335-336, 447-469, Linux 6.17), since a distribution's headers
//      lag behind the kernel it runs.
// tests/syscall_numbers_test.cc checks these against the running kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dt::plugin::syscall {

// The number of system call `name`, or nullopt if none of the sources
// knows it.
[[nodiscard]] std::optional<int64_t> syscall_number(std::string_view name);

} // namespace dt::plugin::syscall
