// SPDX-License-Identifier: MIT
// fbt's source-line parsers and naming rules, on lines as the kernel
// prints them.
#include "function_source.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

using namespace dt::plugin::fbt;

TEST(FbtSource, FilterFunctionLines)
{
	function_entry e;
	ASSERT_TRUE(parse_filter_function_line("vfs_read\n", e));
	EXPECT_EQ(e.func, "vfs_read");
	EXPECT_EQ(e.mod, "vmlinux");
	EXPECT_EQ(e.addr, 0u);
	ASSERT_TRUE(parse_filter_function_line("ext4_file_read_iter [ext4]\n", e));
	EXPECT_EQ(e.func, "ext4_file_read_iter");
	EXPECT_EQ(e.mod, "ext4");
	EXPECT_FALSE(parse_filter_function_line("\n", e));
	EXPECT_FALSE(parse_filter_function_line("f [broken\n", e));
}

TEST(FbtSource, KallsymsLines)
{
	function_entry e;
	ASSERT_TRUE(parse_kallsyms_line("ffffffff816b89f0 T vfs_read\n", e));
	EXPECT_EQ(e.func, "vfs_read");
	EXPECT_EQ(e.mod, "vmlinux");
	EXPECT_EQ(e.addr, 0xffffffff816b89f0u);
	ASSERT_TRUE(parse_kallsyms_line("ffffffffc0a01000 t ext4_read\t[ext4]\n", e));
	EXPECT_EQ(e.func, "ext4_read");
	EXPECT_EQ(e.mod, "ext4");
	EXPECT_FALSE(parse_kallsyms_line("ffffffff82a00000 D jiffies\n", e));
	EXPECT_FALSE(parse_kallsyms_line("ffffffff82a00000 r __ksymtab_x\n", e));
	EXPECT_FALSE(parse_kallsyms_line("ffffffff82a00000 T\n", e));
	EXPECT_FALSE(parse_kallsyms_line("", e));
}

TEST(FbtSource, NamingRules)
{
	auto ok = [](std::string_view mod, std::string_view func) {
		return is_probeable(function_entry{mod, func, 0});
	};
	EXPECT_TRUE(ok("vmlinux", "vfs_read"));
	EXPECT_TRUE(ok("ext4", "ext4_read"));
	EXPECT_FALSE(ok("vmlinux", "__pfx_vfs_read"));
	EXPECT_FALSE(ok("vmlinux", "__cfi_vfs_read"));
	EXPECT_FALSE(ok("vmlinux", "foo.cold"));
	EXPECT_FALSE(ok("vmlinux", "foo.isra.0"));
	EXPECT_FALSE(ok("vmlinux", "foo.constprop.0"));
	EXPECT_FALSE(ok("vmlinux", "__ftrace_invalid_address___644"));
	EXPECT_FALSE(ok("__builtin__ftrace", "ftrace_trampoline"));
	EXPECT_FALSE(ok("bpf", "bpf_prog_6deef7357e7b4530_sd_fw_egress"));
}

TEST(FbtSource, BlacklistLinesAndFile)
{
	std::string_view name;
	ASSERT_TRUE(parse_blacklist_line("0xffffffff81000000-0xffffffff81000010\tdo_int3\n", name));
	EXPECT_EQ(name, "do_int3");
	ASSERT_TRUE(parse_blacklist_line(
		"0xffffffffc0000000-0xffffffffc0000010\tfoo [mod]\n", name));
	EXPECT_EQ(name, "foo");
	EXPECT_FALSE(parse_blacklist_line("garbage\n", name));

	char path[] = "/tmp/dt-fbt-blacklist-XXXXXX";
	int fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	close(fd);
	std::ofstream(path) << "0xffffffff81000000-0xffffffff81000010\tdo_int3\n"
			    << "0xffffffff81000020-0xffffffff81000030\tnmi_handle\n";
	auto names = read_kprobe_blacklist(path);
	std::remove(path);
	EXPECT_EQ(names, (std::unordered_set<std::string>{"do_int3", "nmi_handle"}));
	EXPECT_TRUE(read_kprobe_blacklist("/nonexistent/blacklist").empty());
}

TEST(FbtSource, KallsymsAddresses)
{
	char path[] = "/tmp/dt-fbt-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	close(fd);
	// A data symbol of the same name, a static function twice (the first
	// wins, as for the kprobe core's lookup by name), a module's function.
	std::ofstream(path) << "ffffffff82a00000 D dup\n"
			    << "ffffffff81000010 t dup\n"
			    << "ffffffff81000020 t dup\n"
			    << "ffffffff81000030 T vfs_read\n"
			    << "ffffffffc0a01000 t ext4_read\t[ext4]\n";
	std::unordered_map<std::string, uint64_t> w = {
		{"vmlinux dup", 0}, {"vmlinux vfs_read", 0}, {"ext4 ext4_read", 0},
		{"vmlinux ext4_read", 0}, {"vmlinux absent", 0}};
	EXPECT_EQ(kallsyms_addresses(w, path), 0);
	std::remove(path);
	EXPECT_EQ(w["vmlinux dup"], 0xffffffff81000010ULL);
	EXPECT_EQ(w["vmlinux vfs_read"], 0xffffffff81000030ULL);
	EXPECT_EQ(w["ext4 ext4_read"], 0xffffffffc0a01000ULL);
	EXPECT_EQ(w["vmlinux ext4_read"], 0u);
	EXPECT_EQ(w["vmlinux absent"], 0u);
	EXPECT_LT(kallsyms_addresses(w, "/nonexistent/kallsyms"), 0);
}
