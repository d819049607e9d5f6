// SPDX-License-Identifier: MIT
// d_path() on the bpf engine (lib/subr_dpath.bpf.c) against the kernel's
// own d_path(): what readlink() of /proc/self/fd/N gives for the same
// descriptor, byte for byte. dt_bpf_dpath_target opens the files (see
// dpath_target.c) and writes those readlinks; fds[fd].fi_pathname and
// d_path() of the file's f_path, read at its zero-length write()s, must
// say the same, as fi_dirname must say dirname() of it.
#include "cli_support.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using dt::test::result;
using namespace dt::test::bpf_cli;

std::vector<std::string> lines(const std::string &text)
{
	std::vector<std::string> v;
	std::istringstream in(text);
	for (std::string l; std::getline(in, l);)
		if (!l.empty()) // dtrace's newline at the end
			v.push_back(l);
	return v;
}

// illumos' dirname() of a path without trailing slashes (those here).
std::string dirname_of(const std::string &p)
{
	size_t s = p.rfind('/');
	if (s == std::string::npos)
		return ".";
	size_t e = p.find_last_not_of('/', s);
	return e == std::string::npos ? "/" : p.substr(0, e + 1);
}

// A fresh directory for the target, removed afterwards (mounts die with
// the target's mount namespace).
struct scratch_dir {
	std::string path;
	scratch_dir()
	{
		// $TMPDIR where it is set (the VM guest's / is read-only).
		std::string t =
			(std::filesystem::temp_directory_path() / "dt_dpath.XXXXXX").string();
		if (mkdtemp(t.data()) != nullptr)
			path = t;
	}
	~scratch_dir()
	{
		std::error_code ec;
		if (!path.empty())
			std::filesystem::remove_all(path, ec);
	}
	scratch_dir(const scratch_dir &) = delete;
	scratch_dir &operator=(const scratch_dir &) = delete;
};

struct run {
	result r;
	std::vector<std::string> expected; // "N|readlink" lines of the target
	bool mounted = true;
};

// The target under dtrace with the clause `body` at its zero-length
// write()s (arg0: the descriptor), the run and the target's lines.
run trace_target(const std::string &body, std::vector<std::string> opts = {})
{
	scratch_dir dir, outdir;
	run rn;
	if (dir.path.empty() || outdir.path.empty()) {
		rn.r.status = -1;
		rn.r.err = "mkdtemp failed";
		return rn;
	}
	std::string out = outdir.path + "/links";
	std::vector<std::string> args{"-x", "engine=bpf", "-q"};
	args.insert(args.end(), opts.begin(), opts.end());
	args.insert(args.end(),
		    {"-n", "syscall::write:entry /pid == $target && arg2 == 0/ { " + body + " }",
		     "-c", std::string(DT_BPF_DPATH_TARGET) + " " + dir.path + " " + out});
	rn.r = dtrace(args);
	std::ifstream in(out);
	for (std::string l; std::getline(in, l);) {
		if (l == "#nomount")
			rn.mounted = false;
		else
			rn.expected.push_back(l);
	}
	return rn;
}

// The target's lines with each path cut at strsize characters (the
// option: a string holds that many and its NUL).
std::vector<std::string> cut(const std::vector<std::string> &v, size_t strsize)
{
	std::vector<std::string> c;
	for (const std::string &l : v) {
		size_t bar = l.find('|');
		c.push_back(l.substr(0, bar + 1) + l.substr(bar + 1).substr(0, strsize));
	}
	return c;
}

// Every kind of file the target opens (a plain file, a directory, "/", a
// tmpfs and a bind mount, a deleted file, a long path, a pipe, a socket,
// an eventfd, a memfd, a pidfd; then the same inside a chroot): fds[].
// fi_pathname is the kernel's readlink, cut at strsize as strings are.
TEST(bpf_dpath, fi_pathname_is_what_readlink_shows)
{
	REQUIRE_BPF();
	run rn = trace_target("printf(\"%d|%s\\n\", arg0, fds[arg0].fi_pathname);");
	ASSERT_EQ(rn.r.status, 0) << rn.r.err;
	EXPECT_EQ(rn.r.err, "");
	ASSERT_GE(rn.expected.size(), 20U) << rn.r.out;
	EXPECT_EQ(lines(rn.r.out), cut(rn.expected, 256));
	if (!rn.mounted)
		std::printf(
			"note: the target could not mount here; tmpfs and bind mounts untested\n");
	// What the cases look like, so that the comparison above covers them
	// (not "/": where dtrace itself runs chrooted, as in the VM guest, the
	// target's "/" from before its unshare() is named from the top of the
	// old mount tree, "/mnt" there, and readlink() agrees).
	std::string all;
	for (const std::string &l : rn.expected)
		all += l + "\n";
	for (const char *want :
	     {" (deleted)\n", "|pipe:[", "|socket:[", "|anon_inode:[eventfd]\n",
	      "|/memfd:dt_memfd (deleted)\n", "|anon_inode:[pidfd]\n", "|/inroot\n"})
		EXPECT_NE(all.find(want), std::string::npos) << want << " in\n" << all;
	if (rn.mounted) {
		EXPECT_NE(all.find("/mnt/intmpfs\n"), std::string::npos) << all;
		EXPECT_NE(all.find("/bind/viabind\n"), std::string::npos) << all;
	}
}

// The whole path at strsize 4096 (the 300-character one too), and d_path()
// of the file's f_path spelled out as the Guide's fds[] translator reads it.
TEST(bpf_dpath, d_path_of_f_path_at_strsize_4096)
{
	REQUIRE_BPF();
	run rn = trace_target("printf(\"%d|%s\\n\", arg0, "
			      "d_path(&curthread->files->fdt->fd[arg0]->f_path));",
			      {"-x", "strsize=4096"});
	ASSERT_EQ(rn.r.status, 0) << rn.r.err;
	EXPECT_EQ(rn.r.err, "");
	ASSERT_GE(rn.expected.size(), 20U) << rn.r.out;
	EXPECT_EQ(lines(rn.r.out), rn.expected);
	bool long_one = false;
	for (const std::string &l : rn.expected)
		long_one = long_one || l.size() > 300;
	EXPECT_TRUE(long_one);
}

// A short strsize cuts every path, pseudo names included.
TEST(bpf_dpath, strsize_cuts_the_path)
{
	REQUIRE_BPF();
	run rn = trace_target("printf(\"%d|%s\\n\", arg0, fds[arg0].fi_pathname);",
			      {"-x", "strsize=12"});
	ASSERT_EQ(rn.r.status, 0) << rn.r.err;
	EXPECT_EQ(lines(rn.r.out), cut(rn.expected, 12));
}

// fi_dirname is dirname() of the path; fi_mount is "<unknown>" (io.d says
// why); fi_fs names the file system.
TEST(bpf_dpath, fi_dirname_and_fi_mount)
{
	REQUIRE_BPF();
	run rn = trace_target("printf(\"%d|%s|%s|%s\\n\", arg0, fds[arg0].fi_dirname, "
			      "fds[arg0].fi_mount, fds[arg0].fi_fs);");
	ASSERT_EQ(rn.r.status, 0) << rn.r.err;
	std::vector<std::string> got = lines(rn.r.out);
	std::vector<std::string> want = cut(rn.expected, 256);
	ASSERT_EQ(got.size(), want.size()) << rn.r.out;
	for (size_t i = 0; i < got.size(); i++) {
		size_t bar = want[i].find('|');
		std::string fd = want[i].substr(0, bar);
		std::string dir = dirname_of(want[i].substr(bar + 1));
		EXPECT_EQ(got[i].rfind(fd + "|" + dir + "|<unknown>|", 0), 0U)
			<< got[i] << " for " << want[i];
	}
	EXPECT_NE(rn.r.out.find("|<unknown>|tmpfs\n"), std::string::npos) << rn.r.out;
	EXPECT_NE(rn.r.out.find("|<unknown>|pipefs\n"), std::string::npos) << rn.r.out;
	EXPECT_NE(rn.r.out.find("|<unknown>|sockfs\n"), std::string::npos) << rn.r.out;
}

// dtrace's own working directory and root, through a struct path in
// kernel memory and through a copy of it in scratch memory (alloca()).
TEST(bpf_dpath, d_path_of_pwd_and_root_and_of_a_copy)
{
	REQUIRE_BPF();
	std::string cwd = std::filesystem::current_path().string();
	result r = dtrace(bpf({"-n", "BEGIN { printf(\"%s|%s|\", d_path(&curthread->fs->pwd), "
				     "d_path(&curthread->fs->root)); "
				     "this->p = (struct path *)alloca(sizeof (struct path)); "
				     "this->p->mnt = curthread->fs->pwd.mnt; "
				     "this->p->dentry = curthread->fs->pwd.dentry; "
				     "printf(\"%s\\n\", d_path(this->p)); exit(0); }"}));
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(lines(r.out), std::vector<std::string>{cwd + "|/|" + cwd}) << r.err;
}

// A struct path whose dentry is not kernel memory: the walk faults
// BADADDR at the word it could not read (the dentry's d_op).
TEST(bpf_dpath, unreadable_dentry_faults_at_its_address)
{
	REQUIRE_BPF();
	result r = dtrace(
		bpf({"-n", "BEGIN { this->p = (struct path *)alloca(sizeof (struct path)); "
			   "this->p->mnt = curthread->fs->pwd.mnt; "
			   "this->p->dentry = (struct dentry *)0x1000; trace(d_path(this->p)); } "
			   "ERROR { printf(\"%d %x %d\\n\", arg4, arg5, "
			   "arg5 == 0x1000 + offsetof(struct dentry, d_op)); exit(0); }"}));
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out.substr(0, 2), "1 ") << r.out;
	EXPECT_NE(r.out.find(" 1\n"), std::string::npos) << r.out;
	EXPECT_NE(r.err.find("invalid address"), std::string::npos) << r.err;
}

} // namespace
