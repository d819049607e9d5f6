// SPDX-License-Identifier: MIT
// -c and -p processes (see procs.hpp). A created process is held on a
// pipe between fork and exec: it blocks reading until release() writes,
// so that no instruction of the command runs before tracing has begun.
#include "procs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace dt::cli {
namespace {

std::vector<std::string> split_blanks(const std::string &s)
{
	std::vector<std::string> v;
	std::istringstream in(s);
	std::string w;
	while (in >> w)
		v.push_back(w);
	return v;
}

// Where execvp() would find `file`, or "" (libproc: "cannot find executable file").
std::string find_exec(const std::string &file)
{
	if (file.find('/') != std::string::npos)
		return access(file.c_str(), X_OK) == 0 ? file : "";
	const char *path = std::getenv("PATH");
	std::istringstream in(path != nullptr ? path : "/usr/bin:/bin");
	std::string dir;
	while (std::getline(in, dir, ':')) {
		std::string p = (dir.empty() ? "." : dir) + "/" + file;
		struct stat st {};
		if (stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
		    access(p.c_str(), X_OK) == 0)
			return p;
	}
	return "";
}

} // namespace

procs::~procs()
{
	for (proc &p : list_) {
		if (p.created && p.live) {
			kill(p.pid, SIGKILL);
			waitpid(p.pid, nullptr, 0);
		}
		if (p.go_fd >= 0)
			close(p.go_fd);
		if (p.pidfd >= 0)
			close(p.pidfd);
	}
}

pid_t procs::create(const std::string &cmd)
{
	auto argv = split_blanks(cmd);
	if (argv.empty())
		throw std::runtime_error("failed to execute : cannot find executable file");
	std::string path = find_exec(argv[0]);
	if (path.empty())
		throw std::runtime_error("failed to execute " + argv[0] +
					 ": cannot find executable file");
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		throw std::runtime_error(std::string("failed to execute ") + argv[0] + ": " +
					 std::strerror(errno));
	std::fflush(nullptr);
	pid_t pid = fork();
	if (pid < 0)
		throw std::runtime_error("failed to execute " + argv[0] + ": cannot fork");
	if (pid == 0) {
		close(fds[1]);
		char c;
		ssize_t r;
		while ((r = read(fds[0], &c, 1)) < 0 && errno == EINTR) {
		}
		if (r != 1)
			_exit(127); // dtrace ended before tracing began
		close(fds[0]);
		std::vector<char *> args;
		for (auto &a : argv)
			args.push_back(a.data());
		args.push_back(nullptr);
		execv(path.c_str(), args.data());
		_exit(127);
	}
	close(fds[0]);
	list_.push_back({pid, true, true, fds[1], -1});
	return pid;
}

void procs::grab(pid_t pid)
{
	int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
	if (fd < 0) {
		if (errno == ESRCH)
			throw std::runtime_error("failed to grab pid " + std::to_string(pid) +
						 ": No such process");
		// No pidfd support: fall back to polling /proc.
		if (kill(pid, 0) != 0 && errno == ESRCH)
			throw std::runtime_error("failed to grab pid " + std::to_string(pid) +
						 ": No such process");
	}
	list_.push_back({pid, false, true, -1, fd});
}

void procs::release()
{
	for (proc &p : list_) {
		if (p.go_fd >= 0) {
			(void)!write(p.go_fd, "g", 1);
			close(p.go_fd);
			p.go_fd = -1;
		}
	}
}

size_t procs::live() const
{
	size_t n = 0;
	for (const proc &p : list_)
		n += p.live ? 1 : 0;
	return n;
}

std::vector<std::string> procs::poll()
{
	std::vector<std::string> notes;
	for (proc &p : list_) {
		if (!p.live)
			continue;
		std::string pid = std::to_string(p.pid);
		if (p.created) {
			int ws = 0;
			if (waitpid(p.pid, &ws, WNOHANG) != p.pid)
				continue;
			p.live = false;
			if (WIFSIGNALED(ws)) {
				const char *abbrev = sigabbrev_np(WTERMSIG(ws));
				notes.push_back("pid " + pid + " terminated by " +
						(abbrev ? std::string("SIG") + abbrev
							: std::to_string(WTERMSIG(ws))));
			} else if (WEXITSTATUS(ws) != 0) {
				notes.push_back("pid " + pid + " exited with status " +
						std::to_string(WEXITSTATUS(ws)));
			} else {
				notes.push_back("pid " + pid + " has exited");
			}
			continue;
		}
		bool gone;
		if (p.pidfd >= 0) {
			struct pollfd pfd {
				p.pidfd, POLLIN, 0
			};
			gone = ::poll(&pfd, 1, 0) > 0;
		} else {
			gone = kill(p.pid, 0) != 0 && errno == ESRCH;
		}
		if (gone) {
			p.live = false;
			notes.push_back("pid " + pid + " has exited");
		}
	}
	return notes;
}

} // namespace dt::cli
