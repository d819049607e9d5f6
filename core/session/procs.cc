// SPDX-License-Identifier: MIT
// -c and -p processes (see procs.hpp). A created process runs under
// ptrace (PTRACE_TRACEME): it stops after exec, and is then run to the
// executable's entry point (AT_ENTRY in /proc/PID/auxv) with a one-shot
// breakpoint there, so that the dynamic linker has mapped and relocated
// the program's libraries (pid probes can name them) while no instruction
// of the program's own start-up code, and so none of main(), has run.
// release() detaches: the process runs from its entry point with the
// probes in place.
#include "procs.hpp"

#include <dtrace/error.hpp>
#include <dtrace/session.hpp>

#include <elf.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace {

// The descriptor limit before raise_fd_limit(), which created processes
// get back; set once, before any process is created.
struct rlimit g_child_nofile {};
bool g_nofile_raised = false;

} // namespace

namespace dt {

void raise_fd_limit()
{
	struct rlimit lim {};
	if (g_nofile_raised || getrlimit(RLIMIT_NOFILE, &lim) != 0)
		return;
	rlim_t want = lim.rlim_max;
	if (FILE *f = std::fopen("/proc/sys/fs/nr_open", "r")) {
		unsigned long long n = 0;
		if (std::fscanf(f, "%llu", &n) == 1 && n > want)
			want = static_cast<rlim_t>(n);
		std::fclose(f);
	}
	struct rlimit up {
		want, want
	};
	if (setrlimit(RLIMIT_NOFILE, &up) != 0) {
		up.rlim_cur = up.rlim_max = lim.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &up) != 0)
			return;
	}
	g_child_nofile = lim;
	g_nofile_raised = true;
}

} // namespace dt

namespace dt::detail {
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

// The exec's errno as libproc's Pcreate_error() words it.
std::string exec_error(int err)
{
	switch (err) {
	case ENOENT: return "cannot find executable file";
	case EACCES:
	case ENOEXEC:
	case ETXTBSY:
	case EISDIR: return "cannot execute file";
	case EPERM: return "file is set-id or unobservable";
	default: return "unanticipated system error";
	}
}

// waitpid() for a traced child, through EINTR.
pid_t wait_child(pid_t pid, int &ws)
{
	pid_t r;
	while ((r = waitpid(pid, &ws, 0)) < 0 && errno == EINTR) {
	}
	return r;
}

// illumos dt_proc_create()'s words for a process that ended before it
// could be held.
std::string ended_early(pid_t pid, int ws)
{
	std::string s = "failed to control pid " + std::to_string(pid) + ": process ";
	if (WIFSIGNALED(ws))
		return s + "died from signal " + std::to_string(WTERMSIG(ws));
	return s + "exited with status " + std::to_string(WEXITSTATUS(ws));
}

// AT_ENTRY of process `pid` (0 if it cannot be read).
uint64_t entry_point(pid_t pid)
{
	std::ifstream in("/proc/" + std::to_string(pid) + "/auxv", std::ios::binary);
	uint64_t kv[2];
	while (in.read(reinterpret_cast<char *>(kv), sizeof(kv))) {
		if (kv[0] == AT_NULL)
			break;
		if (kv[0] == AT_ENTRY)
			return kv[1];
	}
	return 0;
}

#if defined(__x86_64__) || defined(__aarch64__)
#define DT_HOLD_AT_ENTRY 1

bool get_regs(pid_t pid, user_regs_struct &r)
{
	struct iovec io = {&r, sizeof(r)};
	return ptrace(PTRACE_GETREGSET, pid, reinterpret_cast<void *>(NT_PRSTATUS), &io) == 0;
}

bool set_regs(pid_t pid, user_regs_struct &r)
{
	struct iovec io = {&r, sizeof(r)};
	return ptrace(PTRACE_SETREGSET, pid, reinterpret_cast<void *>(NT_PRSTATUS), &io) == 0;
}

#if defined(__x86_64__)
decltype(user_regs_struct::rip) &pc_of(user_regs_struct &r)
{
	return r.rip;
}
// int3; the trap leaves the pc after it.
constexpr uint64_t k_trap_insn = 0xcc, k_trap_mask = 0xff, k_trap_pc_adjust = 1;
#else
decltype(user_regs_struct::pc) &pc_of(user_regs_struct &r)
{
	return r.pc;
}
// brk #0; the trap leaves the pc on it.
constexpr uint64_t k_trap_insn = 0xd4200000, k_trap_mask = 0xffffffff, k_trap_pc_adjust = 0;
#endif

// Run the traced process `pid`, stopped after exec, to `entry` with a
// one-shot breakpoint there. Signals it receives meanwhile are passed on.
// Returns "" or what went wrong; `ws` holds its status if it ended.
std::string run_to(pid_t pid, uint64_t entry, int &ws)
{
	user_regs_struct regs{};
	if (!get_regs(pid, regs))
		return std::strerror(errno);
	if (pc_of(regs) == entry)
		return ""; // a static executable: no dynamic linker ran
	auto *addr = reinterpret_cast<void *>(entry);
	errno = 0;
	long word = ptrace(PTRACE_PEEKTEXT, pid, addr, nullptr);
	if (errno != 0)
		return std::strerror(errno);
	auto orig = static_cast<uint64_t>(word);
	uint64_t trap = (orig & ~k_trap_mask) | k_trap_insn;
	if (ptrace(PTRACE_POKETEXT, pid, addr, reinterpret_cast<void *>(trap)) != 0)
		return std::strerror(errno);
	int sig = 0;
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, nullptr, reinterpret_cast<void *>(intptr_t(sig))) != 0)
			return std::strerror(errno);
		if (wait_child(pid, ws) != pid)
			return std::strerror(errno);
		if (!WIFSTOPPED(ws))
			return "ended";
		sig = WSTOPSIG(ws);
		if (sig != SIGTRAP)
			continue;
		if (!get_regs(pid, regs))
			return std::strerror(errno);
		if (pc_of(regs) != entry + k_trap_pc_adjust)
			continue; // a SIGTRAP of its own
		break;
	}
	if (ptrace(PTRACE_POKETEXT, pid, addr, reinterpret_cast<void *>(orig)) != 0)
		return std::strerror(errno);
	pc_of(regs) = entry;
	if (!set_regs(pid, regs))
		return std::strerror(errno);
	return "";
}
#endif

} // namespace

procs::~procs()
{
	for (proc &p : list_) {
		if (p.created && p.live) {
			kill(p.pid, SIGKILL);
			waitpid(p.pid, nullptr, 0);
		}
		if (p.pidfd >= 0)
			close(p.pidfd);
	}
}

pid_t procs::create(const std::string &cmd)
{
	auto argv = split_blanks(cmd);
	if (argv.empty())
		throw dt::error(errc::process, "failed to execute : cannot find executable file");
	std::string path = find_exec(argv[0]);
	if (path.empty())
		throw dt::error(errc::process,
				"failed to execute " + argv[0] + ": cannot find executable file");
	auto failed = [&](const std::string &why) {
		return dt::error(errc::process, "failed to execute " + argv[0] + ": " + why);
	};
	// The child reports a failed exec's errno here; a successful exec
	// closes it (O_CLOEXEC).
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		throw failed(exec_error(errno));
	std::vector<char *> args;
	for (auto &a : argv)
		args.push_back(a.data());
	args.push_back(nullptr);
	std::fflush(nullptr);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		throw failed("cannot fork");
	}
	if (pid == 0) {
		close(fds[0]);
		int err = 0;
		// A lowered hard limit cannot be raised again: only the child's.
		if (g_nofile_raised)
			(void)setrlimit(RLIMIT_NOFILE, &g_child_nofile);
		if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0)
			err = errno;
		else
			execv(path.c_str(), args.data());
		if (err == 0)
			err = errno;
		(void)!write(fds[1], &err, sizeof(err));
		_exit(127);
	}
	close(fds[1]);
	// Until the exec's SIGTRAP (or its end); signals that come first are
	// passed on.
	int ws = 0;
	pid_t w;
	while ((w = wait_child(pid, ws)) == pid && WIFSTOPPED(ws) && WSTOPSIG(ws) != SIGTRAP)
		(void)ptrace(PTRACE_CONT, pid, nullptr,
			     reinterpret_cast<void *>(intptr_t(WSTOPSIG(ws))));
	int err = 0;
	ssize_t n;
	while ((n = read(fds[0], &err, sizeof(err))) < 0 && errno == EINTR) {
	}
	close(fds[0]);
	if (n == static_cast<ssize_t>(sizeof(err))) {
		if (w == pid && WIFSTOPPED(ws))
			kill(pid, SIGKILL);
		waitpid(pid, nullptr, 0);
		throw failed(exec_error(err));
	}
	if (w != pid || !WIFSTOPPED(ws)) {
		if (w != pid)
			throw failed(exec_error(errno));
		throw dt::error(errc::process, ended_early(pid, ws));
	}
	// Stopped after exec. Should dtrace die, the process dies too.
	list_.push_back({pid, true, true, true, -1});
	(void)ptrace(PTRACE_SETOPTIONS, pid, nullptr, reinterpret_cast<void *>(PTRACE_O_EXITKILL));
#ifdef DT_HOLD_AT_ENTRY
	if (uint64_t entry = to_entry_ ? entry_point(pid) : 0; entry != 0) {
		std::string why = run_to(pid, entry, ws);
		if (why == "ended") {
			list_.back().live = false;
			list_.back().held = false;
			throw dt::error(errc::process, ended_early(pid, ws));
		}
		if (!why.empty())
			throw dt::error(errc::process, "failed to control pid " +
							       std::to_string(pid) + ": " + why);
	}
#endif
	return pid;
}

void procs::evaltime(const std::string &when)
{
	if (when != "exec" && when != "preinit" && when != "postinit" && when != "main")
		throw dt::error(errc::usage, "Invalid value for specified option");
	to_entry_ = when != "exec";
}

void procs::grab(pid_t pid)
{
	int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
	if (fd < 0) {
		if (errno == ESRCH)
			throw dt::error(errc::process, "failed to grab pid " + std::to_string(pid) +
							       ": No such process");
		// No pidfd support: fall back to polling /proc.
		if (kill(pid, 0) != 0 && errno == ESRCH)
			throw dt::error(errc::process, "failed to grab pid " + std::to_string(pid) +
							       ": No such process");
	}
	list_.push_back({pid, false, true, false, fd});
}

void procs::release()
{
	for (proc &p : list_) {
		if (p.held) {
			(void)ptrace(PTRACE_DETACH, p.pid, nullptr, nullptr);
			p.held = false;
		}
	}
}

std::vector<pid_t> procs::live_pids() const
{
	std::vector<pid_t> out;
	for (const proc &p : list_)
		if (p.live)
			out.push_back(p.pid);
	return out;
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

} // namespace dt::detail
