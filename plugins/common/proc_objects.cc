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
		uintmax_t ino = 0;
		int path_at = 0;
		if (std::sscanf(line, "%*x-%*x %7s %*x %x:%x %ju %n", perms, &maj, &min,
				&ino, &path_at) < 4 || path_at == 0)
			continue;
		if (std::strchr(perms, 'x') == nullptr || line[path_at] != '/')
			continue;
		std::string path(line + path_at);
		while (!path.empty() && path.back() == '\n')
			path.pop_back();
		if (path.ends_with(k_deleted))
			path.resize(path.size() - k_deleted.size());
		if (!seen.insert(path).second)
			continue;
		mapped_object o;
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
