// SPDX-License-Identifier: MIT
// The pid provider's query logic: pid<digits>, module aliases, and when
// offset probes are wanted.
#include "user_match.hpp"

#include <gtest/gtest.h>

namespace {

using namespace dt::plugin::user;

TEST(PidMatch, LiteralPid)
{
	EXPECT_EQ(literal_pid("pid1234"), 1234);
	EXPECT_EQ(literal_pid("pid0"), 0);
	EXPECT_EQ(literal_pid("pid99999999999"), -1); // beyond pid_t
	EXPECT_EQ(literal_pid("pid"), std::nullopt);
	EXPECT_EQ(literal_pid("pid12a"), std::nullopt);
	EXPECT_EQ(literal_pid("pid*"), std::nullopt);
	EXPECT_EQ(literal_pid("syscall"), std::nullopt);
	EXPECT_EQ(literal_pid("1234"), std::nullopt);
}

TEST(PidMatch, SoStem)
{
	EXPECT_EQ(so_stem("libc.so.6"), "libc");
	EXPECT_EQ(so_stem("ld-linux-x86-64.so.2"), "ld-linux-x86-64");
	EXPECT_EQ(so_stem("libtinfo.so.6.4"), "libtinfo");
	EXPECT_EQ(so_stem("libfoo.so"), "libfoo");
	EXPECT_EQ(so_stem("libsocket.so.1"), "libsocket");
	EXPECT_EQ(so_stem("bash"), "bash");
	EXPECT_EQ(so_stem("a.sobig"), "a.sobig");
}

TEST(PidMatch, ModuleNames)
{
	object_name libc{"/usr/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6", false};
	object_name exe{"/usr/bin/bash", "bash", true};
	EXPECT_EQ(module_for("", libc), "libc.so.6");
	EXPECT_EQ(module_for("libc.so.6", libc), "libc.so.6");
	EXPECT_EQ(module_for("libc*", libc), "libc.so.6");
	EXPECT_EQ(module_for("libc", libc), "libc");
	EXPECT_EQ(module_for("libc.so", libc), "libc.so");
	EXPECT_EQ(module_for("/usr/lib/x86_64-linux-gnu/libc.so.6", libc),
		  "/usr/lib/x86_64-linux-gnu/libc.so.6");
	EXPECT_EQ(module_for("a.out", libc), std::nullopt);
	EXPECT_EQ(module_for("lib", libc), std::nullopt);
	EXPECT_EQ(module_for("l?bc", libc), std::nullopt); // globs: own name only
	EXPECT_EQ(module_for("libm", libc), std::nullopt);
	EXPECT_EQ(module_for("a.out", exe), "a.out");
	EXPECT_EQ(module_for("bash", exe), "bash");
	EXPECT_EQ(module_for("b*", exe), "bash");
	EXPECT_EQ(module_for("libc", exe), std::nullopt);
}

TEST(PidMatch, OffsetsOnlyForANamedFunctionOrModule)
{
	EXPECT_TRUE(wants_offsets("", "malloc", ""));
	EXPECT_TRUE(wants_offsets("", "malloc", "*"));
	EXPECT_TRUE(wants_offsets("", "malloc", "1c"));
	EXPECT_TRUE(wants_offsets("", "mall*", "0"));
	EXPECT_FALSE(wants_offsets("", "malloc", "entry"));
	EXPECT_FALSE(wants_offsets("", "malloc", "return"));
	EXPECT_FALSE(wants_offsets("", "", ""));
	EXPECT_FALSE(wants_offsets("", "", "1c"));
	// A module alone is every instruction of it (illumos: pid123:a.out::).
	EXPECT_TRUE(wants_offsets("a.out", "", ""));
	EXPECT_TRUE(wants_offsets("a.out", "", "1*"));
	EXPECT_FALSE(wants_offsets("a.out", "", "entry"));
	EXPECT_TRUE(is_offset_name("1c"));
	EXPECT_FALSE(is_offset_name(""));
	EXPECT_FALSE(is_offset_name("beginning"));
}

TEST(PidMatch, OffsetNames)
{
	EXPECT_EQ(offset_name(0), "0");
	EXPECT_EQ(offset_name(1), "1");
	EXPECT_EQ(offset_name(28), "1c");
	EXPECT_EQ(offset_name(0x1234abcd), "1234abcd");
}

TEST(PidMatch, Globs)
{
	EXPECT_TRUE(glob_match("", "anything"));
	EXPECT_TRUE(glob_match("pid*", "pid42"));
	EXPECT_TRUE(glob_match("pid[0-9]*", "pid42"));
	EXPECT_FALSE(glob_match("pid[!4]*", "pid42"));
	EXPECT_TRUE(glob_match("*lloc", "malloc"));
	EXPECT_FALSE(glob_match("malloc", "__libc_malloc"));
	EXPECT_TRUE(is_glob("a*"));
	EXPECT_TRUE(is_glob("a\\b"));
	EXPECT_FALSE(is_glob("a.out"));
}

} // namespace
