// SPDX-License-Identifier: MIT
// A process in a container, traced from the host (docs/containers.md):
// ns_target runs in its own pid and mount namespaces (unshare(1)) where
// it is /app/ns_target, a path the host does not have, with /usr
// bind-mounted: once under a root of its own as a container runtime makes
// one (pivot_root: /proc/PID/maps then names its files by its paths, and
// the providers open them through /proc/PID/root), once chrooted with its
// executable deleted from the host after it started (reached through
// /proc/PID/map_files). It is moved into a cgroup of its own. dtrace -p
// with its host pid places pid$target and shop$target (USDT) probes on
// it; nspid, nstid and nsppid are the numbers the program printed for
// getpid(), gettid() and getppid() inside; cgroup is the inode number of
// its cgroup v2 directory, and a system-wide probe filtered on it counts
// that process only; a pid that is gone is DTrace's message.
#include "child_process.hpp"
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;
using dt::test::background_dtrace;
using dt::test::child;
using dt::test::bpf_cli::bpf;
using dt::test::bpf_cli::dtrace;

// Where cgroup v2 is mounted ("" if nowhere): /sys/fs/cgroup, or
// /sys/fs/cgroup/unified on a hybrid system.
std::string cgroup2_mount()
{
	std::ifstream in("/proc/self/mountinfo");
	std::string line;
	while (std::getline(in, line))
		if (line.find(" - cgroup2 ") != std::string::npos) {
			std::istringstream f(line);
			std::string skip, mnt;
			f >> skip >> skip >> skip >> skip >> mnt;
			return mnt;
		}
	return {};
}

// The host pid of the process whose executable is the file `exe`, or 0.
pid_t find_by_exe(const fs::path &exe)
{
	struct stat want {};
	if (stat(exe.c_str(), &want) != 0)
		return 0;
	std::error_code ec;
	for (const auto &e : fs::directory_iterator("/proc", ec)) {
		const std::string name = e.path().filename();
		struct stat st {};
		if (name.find_first_not_of("0123456789") == std::string::npos &&
		    stat((e.path() / "exe").c_str(), &st) == 0 && st.st_ino == want.st_ino &&
		    st.st_dev == want.st_dev)
			return static_cast<pid_t>(std::stol(name));
	}
	return 0;
}

// The container: a root directory with the target at /app/ns_target,
// removed on destruction (with the cgroup, if one was made).
struct container {
	fs::path root;
	fs::path cgroup;
	explicit container(const std::string &tag)
		: root(fs::temp_directory_path() /
		       ("dt_ns_" + tag + "_" + std::to_string(getpid())))
	{
		fs::remove_all(root);
		for (const char *d : {"app", "usr", "proc", "tmp"})
			fs::create_directories(root / d);
		for (const char *l : {"bin", "lib", "lib64", "sbin"})
			if (fs::is_symlink(fs::path("/") / l))
				fs::create_symlink(fs::read_symlink(fs::path("/") / l), root / l);
		fs::copy_file(DT_USDT_NS_TARGET, root / "app/ns_target");
		fs::permissions(root / "app/ns_target", fs::perms::owner_all);
	}
	~container()
	{
		std::error_code ec;
		fs::remove_all(root, ec);
		if (!cgroup.empty())
			fs::remove(cgroup, ec);
	}
	// unshare(1): new mount and pid namespaces; inside, /usr is
	// bind-mounted under the root and the target runs there, with a /proc
	// of its namespace, either
	//   pivot: as a container runtime does, the root made the namespace's
	//          root mount (pivot_root): /proc/PID/maps, read from the host,
	//          names its files by its own paths (/app/ns_target)
	//   chroot: chrooted, in a copy of our mounts: maps names them by
	//          paths of the host's tree
	std::vector<std::string> argv(int n, bool pivot) const
	{
		std::string r = root.string(), run = "/app/ns_target " + std::to_string(n);
		std::string script =
			pivot ? "mount --bind " + r + " " + r + " && mount --bind /usr " + r +
					"/usr && cd " + r +
					" && mkdir -p old && pivot_root . old && " +
					"mount -t proc proc /proc && umount -l /old && " + run
			      : "mount --bind /usr " + r + "/usr && mount -t proc proc " + r +
					"/proc && /usr/sbin/chroot " + r + " " + run;
		return {"/usr/bin/unshare",  "--mount", "--pid", "--fork", "/bin/sh", "-c",
			script + "; exit $?"};
	}
};

bool namespaces_usable(std::string &why)
{
	auto r = dt::test::run({"/usr/bin/unshare", "--mount", "--pid", "--fork", "/bin/true"});
	if (r.status != 0)
		why = "unshare --mount --pid fails here: " + r.err;
	return r.status == 0;
}

// Trace the target in `box` by host pid; `deleted`: its executable is
// removed from the host's tree before tracing (it is reached through
// /proc/PID/map_files then).
void traced_by_host_pid(container &box, bool pivot, bool deleted)
{
	child sh(box.argv(5, pivot));
	ASSERT_GT(sh.pid, 0);
	std::string hello = sh.read_until("\n");
	int ns_pid = 0, ns_tid = 0, ns_ppid = -1;
	ASSERT_EQ(std::sscanf(hello.c_str(), "ns %d %d %d", &ns_pid, &ns_tid, &ns_ppid), 3)
		<< hello;
	pid_t host = find_by_exe(box.root / "app/ns_target");
	ASSERT_GT(host, 0) << "the target is not among /proc/*/exe";
	ASSERT_NE(host, ns_pid) << "not in a pid namespace of its own";
	// The host does not have the path the process sees as its executable.
	ASSERT_FALSE(fs::exists("/app/ns_target"));
	if (deleted)
		fs::remove(box.root / "app/ns_target");

	// A cgroup of its own, where cgroup v2 is mounted and writable;
	// else the one it is in.
	std::string cg2 = cgroup2_mount();
	uint64_t cgroup_id = 0;
	if (!cg2.empty()) {
		fs::path mine = fs::path(cg2) / ("dt_ns_test_" + std::to_string(getpid()));
		std::error_code ec;
		if (fs::create_directory(mine, ec)) {
			box.cgroup = mine;
			std::ofstream(mine / "cgroup.procs") << host << "\n";
		}
		std::ifstream in("/proc/" + std::to_string(host) + "/cgroup");
		std::string line;
		while (std::getline(in, line))
			if (line.starts_with("0::")) {
				struct stat st {};
				if (stat((cg2 + line.substr(3)).c_str(), &st) == 0)
					cgroup_id = st.st_ino;
			}
	}

	std::string p = std::to_string(host);
	background_dtrace d(
		{"-p", p, "-n", "pid$target:a.out:shop_visit:entry { @[\"visit\"] = count(); }",
		 "-n", "shop$target:::order-placed { @[\"order\"] = count(); }", "-n",
		 "shop$target:::closed { printf(\"ids %d %d %d %d %d %s\\n\", nspid, nstid, "
		 "nsppid, pid, tid, execname); printf(\"cgroup %d\\n\", cgroup); }",
		 "-n",
		 "shop:::order-placed /cgroup == " + std::to_string(cgroup_id) +
			 "ULL/ { @[\"in-cgroup\"] = count(); }",
		 "-n", "END { printa(\"%s %@d\\n\", @); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	sh.send("x");
	int status = -1;
	std::string out = d.finish(status);
	EXPECT_EQ(sh.wait(), 0);
	ASSERT_EQ(status, 0) << out;
	EXPECT_NE(out.find("visit 5\n"), std::string::npos) << out;
	EXPECT_NE(out.find("order 5\n"), std::string::npos) << out;
	EXPECT_NE(out.find("in-cgroup 5\n"), std::string::npos) << out;
	std::ostringstream ids;
	ids << "ids " << ns_pid << " " << ns_tid << " " << ns_ppid << " " << host << " " << host
	    << " ns_target\n";
	EXPECT_NE(out.find(ids.str()), std::string::npos) << out << "want: " << ids.str();
	if (cgroup_id != 0) {
		EXPECT_NE(out.find("cgroup " + std::to_string(cgroup_id) + "\n"), std::string::npos)
			<< out;
	}
}

TEST(UsdtContainer, PivotedRootTracedByHostPid)
{
	REQUIRE_BPF();
	std::string why;
	if (!namespaces_usable(why))
		GTEST_SKIP() << why;
	container box("pivot");
	traced_by_host_pid(box, true, false);
}

TEST(UsdtContainer, ChrootedWithItsExecutableDeleted)
{
	REQUIRE_BPF();
	std::string why;
	if (!namespaces_usable(why))
		GTEST_SKIP() << why;
	container box("chroot");
	traced_by_host_pid(box, false, true);
}

TEST(UsdtContainer, AProcessThatIsGone)
{
	REQUIRE_BPF();
	// A pid that was a process a moment ago.
	child gone({"/bin/true"});
	ASSERT_GT(gone.pid, 0);
	pid_t pid = gone.pid;
	gone.wait();
	auto r = dtrace(bpf({"-p", std::to_string(pid), "-n", "shop$target:::closed"}));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.err.find("failed to grab pid " + std::to_string(pid)), std::string::npos)
		<< r.err;
}

} // namespace
