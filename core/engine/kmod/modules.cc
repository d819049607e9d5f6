// SPDX-License-Identifier: MIT
// Loading dtrace.ko and provider modules on demand (see modules.hpp).
#include "modules.hpp"

#include "device.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#ifndef DTRACE_KMOD_INSTALL_DIR
#define DTRACE_KMOD_INSTALL_DIR "/usr/local/lib/dtrace/modules"
#endif
#ifndef DTRACE_KMOD_SUBDIR
#define DTRACE_KMOD_SUBDIR "lib/dtrace/modules"
#endif

namespace dt::kmod {
namespace fs = std::filesystem;

namespace {

std::string release()
{
	struct utsname u {};
	if (uname(&u) != 0)
		return {};
	return u.release;
}

// The core's module name: what /sys/module and the .ko file are called.
constexpr const char *k_core = "dtrace";

} // namespace

std::vector<std::string> module_search_path()
{
	std::vector<std::string> path;
	if (const char *env = std::getenv("DTRACE_KMOD_DIR")) {
		std::string s = env;
		size_t start = 0;
		while (start <= s.size()) {
			size_t colon = s.find(':', start);
			if (colon == std::string::npos)
				colon = s.size();
			if (colon > start)
				path.push_back(s.substr(start, colon - start));
			start = colon + 1;
		}
	}
	std::string rel = release();
	std::error_code ec;
	fs::path exe = fs::read_symlink("/proc/self/exe", ec);
	if (!ec)
		path.push_back((exe.parent_path().parent_path() / DTRACE_KMOD_SUBDIR / rel)
				       .lexically_normal());
	path.push_back((fs::path(DTRACE_KMOD_INSTALL_DIR) / rel).string());
	// Where DKMS installs the dtrace-dkms package's build.
	path.push_back((fs::path("/lib/modules") / rel / "updates/dkms").string());
	return path;
}

bool module_loaded(const std::string &name)
{
	struct stat sb {};
	return stat(("/sys/module/" + name).c_str(), &sb) == 0 && S_ISDIR(sb.st_mode);
}

namespace {

// The module's file, first match on the search path; else the error
// load_module() gives.
std::optional<error> find_module(const std::string &name, std::string &file)
{
	std::vector<std::string> dirs = module_search_path();
	for (const std::string &d : dirs) {
		std::string f = d + "/" + name + ".ko";
		if (access(f.c_str(), R_OK) == 0) {
			file = f;
			return std::nullopt;
		}
	}
	std::string list;
	for (const std::string &d : dirs)
		list += (list.empty() ? "" : ", ") + d;
	return error(errc::unsupported, "cannot load module " + name + ": no " + name + ".ko in " +
						list + " (set DTRACE_KMOD_DIR)");
}

} // namespace

std::optional<error> could_load(const std::string &name)
{
	if (module_loaded(name))
		return std::nullopt;
	std::string file;
	if (std::optional<error> e = find_module(name, file))
		return e;
	const std::string head = "cannot load module " + name + ": ";
	if (access("/proc/modules", F_OK) != 0)
		return error(errc::unsupported, head + "this kernel cannot load modules");
	if (geteuid() != 0)
		return error(errc::privilege, head + "DTrace requires additional privileges");
	return std::nullopt;
}

std::optional<error> load_module(const std::string &name)
{
	if (module_loaded(name))
		return std::nullopt;
	const std::string head = "cannot load module " + name + ": ";
	std::string file;
	if (std::optional<error> e = find_module(name, file))
		return e;
	int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error(errc::io, head + file + ": " + std::strerror(errno));
	long rc = syscall(SYS_finit_module, fd, "", 0);
	int err = rc == 0 ? 0 : errno;
	close(fd);
	if (err == 0 || err == EEXIST)
		return std::nullopt;
	if (err == ENOSYS)
		return error(errc::unsupported,
			     head + "this kernel cannot load modules (finit_module: " +
				     std::strerror(err) + ")");
	if (err == EPERM)
		return error(errc::privilege, head + "DTrace requires additional privileges");
	return error(errc::io, head + file + ": " + std::strerror(err));
}

std::optional<error> ensure_core()
{
	struct stat sb {};
	if (stat(k_device_path, &sb) == 0)
		return std::nullopt;
	if (!module_loaded(k_core))
		if (std::optional<error> e = load_module(k_core))
			return e;
	// devtmpfs creates the node as the misc device registers; allow a
	// moment for a slow (emulated) machine.
	for (int i = 0; i < 100; i++) {
		if (stat(k_device_path, &sb) == 0)
			return std::nullopt;
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
	}
	return error(errc::unsupported, std::string("module ") + k_core + " is loaded but " +
						k_device_path +
						" does not exist (is devtmpfs mounted on /dev?)");
}

} // namespace dt::kmod
