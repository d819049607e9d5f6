// SPDX-License-Identifier: MIT
#include "run_dtrace.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char **environ;

namespace dt::test {

const char *dtrace_bin() { return DTRACE_TEST_BIN; }
const char *source_dir() { return DTRACE_TEST_SOURCE_DIR; }
const char *build_dir() { return DTRACE_TEST_BUILD_DIR; }

bool is_root() { return geteuid() == 0; }

namespace {

std::string slurp_fd(int fd)
{
	std::string s;
	char buf[65536];
	lseek(fd, 0, SEEK_SET);
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		s.append(buf, static_cast<size_t>(n));
	return s;
}

} // namespace

result run(const std::vector<std::string> &argv,
	   const std::map<std::string, std::string> &env)
{
	// Output goes to unlinked temporary files, not pipes: a listing can be
	// megabytes, and reading two pipes in turn can deadlock. In $TMPDIR:
	// in the VM guest /tmp is the host's, read-only.
	std::string dir = std::filesystem::temp_directory_path().string();
	std::string out_tmpl = dir + "/dt-test-out-XXXXXX";
	std::string err_tmpl = dir + "/dt-test-err-XXXXXX";
	int out_fd = mkstemp(out_tmpl.data());
	int err_fd = mkstemp(err_tmpl.data());
	if (out_fd < 0 || err_fd < 0)
		throw std::runtime_error("mkstemp failed in " + dir);
	unlink(out_tmpl.c_str());
	unlink(err_tmpl.c_str());

	pid_t pid = fork();
	if (pid < 0)
		throw std::runtime_error("fork failed");
	if (pid == 0) {
		for (const auto &[k, v] : env) {
			if (v == "\x01unset")
				unsetenv(k.c_str());
			else
				setenv(k.c_str(), v.c_str(), 1);
		}
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(out_fd, 1);
		dup2(err_fd, 2);
		std::vector<char *> args;
		for (const auto &a : argv)
			args.push_back(const_cast<char *>(a.c_str()));
		args.push_back(nullptr);
		execve(args[0], args.data(), environ);
		std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
		_exit(127);
	}
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
	}
	result r;
	r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	r.out = slurp_fd(out_fd);
	r.err = slurp_fd(err_fd);
	close(out_fd);
	close(err_fd);
	return r;
}

result dtrace(const std::vector<std::string> &args,
	      const std::map<std::string, std::string> &env)
{
	std::vector<std::string> argv{dtrace_bin()};
	argv.insert(argv.end(), args.begin(), args.end());
	return run(argv, env);
}

std::vector<std::string> lines(const std::string &s)
{
	std::vector<std::string> v;
	std::istringstream in(s);
	std::string l;
	while (std::getline(in, l))
		v.push_back(l);
	return v;
}

} // namespace dt::test
