// SPDX-License-Identifier: MIT
// /proc/PID/maps and /proc/PID/exe reading for the pid provider.
//
// A maps line is
//   start-end perms offset major:minor inode   path
// e.g. "7f39d2c3f000-7f39d2d95000 r-xp 00026000 fe:00 332835  /usr/lib/x86_64-linux-gnu/libc.so.6".
// No library parses this format (libproc is illumos-only; libdwfl's
// dwfl_linux_proc_report reads the same file but builds a full Dwfl we
// do not need), so the few fields are read here with sscanf.
#include "proc_objects.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>

namespace dt::plugin::user {
namespace {

constexpr std::string_view k_deleted = " (deleted)";

struct file_closer {
	void operator()(FILE *f) const { std::fclose(f); }
};

std::string proc_file(int32_t pid, const char *what)
{
	return "/proc/" + std::to_string(pid) + "/" + what;
}

// The executable's path as the process sees it, "" if unknown.
std::string exe_path(int32_t pid)
{
	char buf[4096];
	ssize_t n = readlink(proc_file(pid, "exe").c_str(), buf, sizeof(buf) - 1);
	if (n <= 0)
		return {};
	std::string s(buf, static_cast<size_t>(n));
	if (s.ends_with(k_deleted))
		s.resize(s.size() - k_deleted.size());
	return s;
}

} // namespace

std::string host_path(int32_t pid, const std::string &path)
{
	return proc_file(pid, "root") + path;
}

std::string object_path(int32_t pid, const mapped_object &obj)
{
	// maps gives a path relative to the root of the mount namespace the
	// file is in when our root is not on its way up (a container that
	// pivoted into its own root), else our own (a chroot in our mounts):
	// whichever names the mapped file, then the map itself.
	auto same = [&](const std::string &p) {
		struct stat st {};
		return !obj.deleted && stat(p.c_str(), &st) == 0 && st.st_ino == obj.ino;
	};
	std::string path = host_path(pid, obj.path);
	if (same(path))
		return path;
	if (same(obj.path))
		return obj.path;
	std::string mapped = proc_file(pid, "map_files/") + obj.range;
	return obj.range.empty() || access(mapped.c_str(), R_OK) != 0 ? path : mapped;
}

int read_objects(int32_t pid, std::vector<mapped_object> &out)
{
	out.clear();
	std::unique_ptr<FILE, file_closer> f(std::fopen(proc_file(pid, "maps").c_str(), "re"));
	if (!f)
		return -errno;
	std::string exe = exe_path(pid);
	struct stat exe_st {};
	bool have_exe_st = stat(proc_file(pid, "exe").c_str(), &exe_st) == 0;

	std::set<std::string> seen;
	char *line = nullptr;
	size_t cap = 0;
	while (getline(&line, &cap, f.get()) > 0) {
		char perms[8] = {};
		unsigned maj = 0, min = 0;
		uintmax_t start = 0, end = 0, ino = 0;
		int path_at = 0;
		if (std::sscanf(line, "%jx-%jx %7s %*x %x:%x %ju %n", &start, &end, perms, &maj,
				&min, &ino, &path_at) < 6 ||
		    path_at == 0)
			continue;
		if (std::strchr(perms, 'x') == nullptr || line[path_at] != '/')
			continue;
		std::string path(line + path_at);
		while (!path.empty() && path.back() == '\n')
			path.pop_back();
		bool deleted = path.ends_with(k_deleted);
		if (deleted)
			path.resize(path.size() - k_deleted.size());
		if (!seen.insert(path).second)
			continue;
		mapped_object o;
		char range[48];
		std::snprintf(range, sizeof(range), "%jx-%jx", start, end);
		o.range = range;
		o.deleted = deleted;
		o.path = path;
		o.basename = path.substr(path.rfind('/') + 1);
		o.dev = makedev(maj, min);
		o.ino = static_cast<ino_t>(ino);
		o.is_main = (!exe.empty() && path == exe) ||
			    (have_exe_st && exe_st.st_ino == o.ino && exe_st.st_dev == o.dev);
		out.push_back(std::move(o));
	}
	std::free(line);
	return 0;
}

} // namespace dt::plugin::user
