// SPDX-License-Identifier: MIT
// Probes in objects a process maps after tracing starts (docs/usdt.md,
// "Objects mapped later"): a program built here dlopen()s a library with a
// USDT probe (from a `dtrace -h` header; its string on the stack, a page
// the process has touched) and a plain function only once
// dtrace has released it, calls them, dlclose()s the library, maps the
// same file by hand and calls the function there (a uprobe left on the
// file would fire), then dlopen()s it again and calls once more. pid and
// USDT probes that named the library before it was loaded (-Z) fire, with
// their arguments, exactly for the calls made while it was dlopen()ed.
#include "child_process.hpp"
#include "cli_support.hpp"
#include "usdt_build.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using dt::test::bpf_cli::bpf;
using dt::test::bpf_cli::dtrace;
namespace fs = std::filesystem;

const char *const k_provider = "provider dlo { probe hit(int, char *); };\n";

const char *const k_lib = R"(#include "dlo.h"
int dlo_add(int a, int b)
{
	return a + b;
}
void dlo_fire(int i)
{
	volatile char word[8] = "hello";
	DLO_HIT(i, (char *)word);
}
)";

// argv[1]: the library; with argv[2], it first waits for a byte on its
// standard input (for dtrace -p to grab it). Its dlo_add's file offset is its address less the
// object's base (the text segment's file offset equals its address in an
// object GNU ld links), so the hand-made mapping calls the same bytes.
const char *const k_main = R"(#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
static int round_of(const char *lib, int first, int n)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return -1;
	}
	int (*add)(int, int) = (int (*)(int, int))dlsym(h, "dlo_add");
	void (*fire)(int) = (void (*)(int))dlsym(h, "dlo_fire");
	int sum = 0;
	for (int i = first; i < first + n; i++) {
		sum += add(i, 10);
		fire(i);
	}
	dlclose(h);
	return sum;
}
int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (argc > 2) { /* grabbed with -p: go once told to */
		char c;
		printf("ready\n");
		fflush(stdout);
		if (read(0, &c, 1) != 1)
			return 1;
	}
	if (round_of(argv[1], 0, 3) < 0)
		return 1;
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	int (*add)(int, int) = (int (*)(int, int))dlsym(h, "dlo_add");
	Dl_info info;
	dladdr((void *)add, &info);
	long off = (char *)add - (char *)info.dli_fbase;
	dlclose(h);
	int fd = open(argv[1], O_RDONLY);
	off_t size = lseek(fd, 0, SEEK_END);
	char *m = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 1;
	int byhand = ((int (*)(int, int))(m + off))(100, 1);
	munmap(m, size);
	if (byhand != 101)
		return 1;
	if (round_of(argv[1], 7, 1) < 0)
		return 1;
	return 0;
}
)";

struct dlopen_build : dt::test::usdt_build {
	std::string lib, app;

	dlopen_build() : usdt_build("dt_usdt_dlopen")
	{
		lib = dir / "libdlo.so";
		app = dir / "dlo_main";
		write("dlo.c", k_lib);
		write("main.c", k_main);
		if (header("dlo", k_provider) &&
		    cc({"-fPIC", "-shared", dir / "dlo.c", "-o", lib}, "library"))
			cc({dir / "main.c", "-o", app, "-ldl"}, "main");
	}
};

TEST(UsdtDlopen, ProbesInALibraryLoadedLaterFireOnlyWhileItIsLoaded)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	dlopen_build b;
	ASSERT_TRUE(b.ok) << b.err;
	auto r = dtrace(bpf({"-Zq", "-n",
			     "pid$target:libdlo.so:dlo_add:entry "
			     "{ printf(\"add %d %d\\n\", arg0, arg1); @n[\"add\"] = count(); }",
			     "-n",
			     "dlo$target:::hit { printf(\"hit %d %s %s\\n\", arg0, "
			     "copyinstr(arg1), probemod); @n[\"hit\"] = count(); }",
			     "-c", b.app + " " + b.lib}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out, "add 0 10\nhit 0 hello libdlo.so\n"
			 "add 1 10\nhit 1 hello libdlo.so\n"
			 "add 2 10\nhit 2 hello libdlo.so\n"
			 "add 7 10\nhit 7 hello libdlo.so\n"
			 "\n"
			 "  add                                                               4\n"
			 "  hit                                                               4\n");
}

// The same for a process dtrace grabs (-p), which is not under ptrace:
// it stops itself in the run-time linker, and dtrace continues it.
TEST(UsdtDlopen, AGrabbedProcessToo)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	dlopen_build b;
	ASSERT_TRUE(b.ok) << b.err;
	dt::test::child target({b.app, b.lib, "wait"});
	ASSERT_GT(target.pid, 0);
	ASSERT_NE(target.read_until("ready\n").find("ready\n"), std::string::npos);
	dt::test::background_dtrace d(
		{"-Z", "-p", std::to_string(target.pid), "-n",
		 "pid$target:libdlo.so:dlo_add:entry { printf(\"add %d %d\\n\", arg0, arg1); }",
		 "-n", "dlo$target:::hit { printf(\"hit %d %s\\n\", arg0, copyinstr(arg1)); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	target.send("x");
	EXPECT_EQ(target.wait(), 0);
	int status = -1;
	std::string out = d.finish(status);
	EXPECT_EQ(status, 0);
	EXPECT_EQ(out, "begun\n"
		       "add 0 10\nhit 0 hello\n"
		       "add 1 10\nhit 1 hello\n"
		       "add 2 10\nhit 2 hello\n"
		       "add 7 10\nhit 7 hello\n\n");
}

// Without -Z a description that names a library not loaded yet matches
// nothing, and dtrace says so, as DTrace does.
TEST(UsdtDlopen, ALibraryNotLoadedYetNeedsZ)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	dlopen_build b;
	ASSERT_TRUE(b.ok) << b.err;
	auto r = dtrace(bpf({"-q", "-n", "pid$target:libdlo.so:dlo_add:entry { trace(arg0); }",
			     "-c", b.app + " " + b.lib}));
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("does not match any probes"), std::string::npos) << r.err;
}

} // namespace
