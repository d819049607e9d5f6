// SPDX-License-Identifier: MIT
// Where the consumer looks for provider plugins, and where tracefs is.
#include "plugin_internal.hpp"

#include <dtrace/provider.hpp>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#ifndef DTRACE_PLUGIN_INSTALL_DIR
#error "DTRACE_PLUGIN_INSTALL_DIR must be defined by the build"
#endif
#ifndef DTRACE_PLUGIN_SUBDIR
#error "DTRACE_PLUGIN_SUBDIR must be defined by the build"
#endif

namespace fs = std::filesystem;

namespace dt {

std::vector<std::string> plugin_search_path()
{
	std::vector<std::string> path;
	if (const char *env = std::getenv("DTRACE_PLUGIN_PATH")) {
		std::stringstream ss(env);
		std::string dir;
		while (std::getline(ss, dir, ':'))
			if (!dir.empty())
				path.push_back(dir);
	}
	std::error_code ec;
	fs::path exe = fs::read_symlink("/proc/self/exe", ec);
	if (!ec) {
		fs::path rel = exe.parent_path().parent_path() / DTRACE_PLUGIN_SUBDIR;
		path.push_back(rel.lexically_normal().string());
	}
	path.emplace_back(DTRACE_PLUGIN_INSTALL_DIR);
	return path;
}

namespace detail {

std::string find_tracefs()
{
	auto usable = [](const char *dir) {
		struct stat st {};
		std::string events = std::string(dir) + "/events";
		return stat(events.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
	};
	for (const char *dir : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"})
		if (usable(dir))
			return dir;
	// Not mounted: as root, mount it where the kernel documents it, as
	// `mount -t tracefs tracefs /sys/kernel/tracing` would.
	if (geteuid() == 0 &&
	    mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, nullptr) == 0 &&
	    usable("/sys/kernel/tracing"))
		return "/sys/kernel/tracing";
	return {};
}

} // namespace detail
} // namespace dt
