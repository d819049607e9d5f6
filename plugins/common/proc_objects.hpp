// SPDX-License-Identifier: MIT
// The objects a process has mapped for execution, from /proc/PID/maps:
// its executable and loaded shared libraries, in address order, each once.
// Anonymous and special mappings ([vdso], [vsyscall], JIT code) are left
// out: they have no file to read symbols from.
#pragma once

#include "user_match.hpp"

#include <sys/types.h>

#include <string>
#include <vector>

namespace dt::plugin::user {

struct mapped_object : object_name {
	dev_t dev = 0;
	ino_t ino = 0;
	// Its first executable mapping, "start-end" in hex as maps and
	// /proc/PID/map_files name it; deleted: the file is gone from the
	// process's filesystem (maps says " (deleted)").
	std::string range;
	bool deleted = false;
};

// Fill `out` with the executable mappings of process `pid`. Returns 0, or
// a negative errno (-ENOENT: no such process, -EACCES ...).
[[nodiscard]] int read_objects(int32_t pid, std::vector<mapped_object> &out);

// The path to open `obj` from this process: through /proc/PID/root so
// that a process in another mount namespace (a container) is read from
// its own filesystem.
[[nodiscard]] std::string host_path(int32_t pid, const std::string &path);

// The path to open mapped object `obj` of process `pid` from this process:
// host_path() of its path when that is the mapped file (same inode), else
// the path itself (a process chrooted within our mounts: maps shows our
// paths), else /proc/PID/map_files/<range>, the mapped file itself even
// when deleted or replaced since (an upgraded package, a container image
// layer changed); reading it needs CAP_SYS_ADMIN, as tracing does.
[[nodiscard]] std::string object_path(int32_t pid, const mapped_object &obj);

} // namespace dt::plugin::user
