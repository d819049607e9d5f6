// SPDX-License-Identifier: MIT
// Probe descriptions and DTrace's glob rules (core/probe/probe_desc.cc).
#include <dtrace/error.hpp>
#include <dtrace/probe_desc.hpp>

#include <gtest/gtest.h>

using dt::desc_kind;
using dt::glob_match;
using dt::probe_desc;

TEST(Glob, EmptyPatternMatchesAnything)
{
	EXPECT_TRUE(glob_match("", "read"));
	EXPECT_TRUE(glob_match("", ""));
}

TEST(Glob, LiteralIsExact)
{
	EXPECT_TRUE(glob_match("read", "read"));
	EXPECT_FALSE(glob_match("read", "readv"));
	EXPECT_FALSE(glob_match("read", "prea"));
}

TEST(Glob, StarQuestionAndClasses)
{
	EXPECT_TRUE(glob_match("open*", "openat"));
	EXPECT_TRUE(glob_match("open*", "open"));
	EXPECT_FALSE(glob_match("open*", "fopen"));
	EXPECT_TRUE(glob_match("*read*", "pread64"));
	EXPECT_TRUE(glob_match("read?", "readv"));
	EXPECT_FALSE(glob_match("read?", "read"));
	EXPECT_TRUE(glob_match("[a-e]*", "close"));
	EXPECT_FALSE(glob_match("[a-e]*", "read"));
	EXPECT_TRUE(glob_match("[!a-e]*", "read"));
	EXPECT_FALSE(glob_match("[!a-e]*", "close"));
	EXPECT_TRUE(glob_match("tick-[0-9]*", "tick-10"));
}

TEST(Glob, SlashAndDotAreOrdinary)
{
	// gmatch(3GEN) has no pathname or leading-dot rules.
	EXPECT_TRUE(glob_match("*", "libc.so.6"));
	EXPECT_TRUE(glob_match("lib*6", "libc.so.6"));
	EXPECT_TRUE(glob_match("*", ".hidden"));
	EXPECT_TRUE(glob_match("a*b", "a/x/b"));
}

TEST(Glob, BackslashQuotes)
{
	EXPECT_TRUE(glob_match("a\\*", "a*"));
	EXPECT_FALSE(glob_match("a\\*", "ab"));
}

TEST(Glob, IsGlob)
{
	EXPECT_FALSE(dt::is_glob("syscall"));
	EXPECT_TRUE(dt::is_glob("sys*"));
	EXPECT_TRUE(dt::is_glob("a?"));
	EXPECT_TRUE(dt::is_glob("[ab]"));
	EXPECT_FALSE(dt::is_glob(""));
}

namespace {
probe_desc parse(const char *s, desc_kind k)
{
	probe_desc d;
	EXPECT_NO_THROW(d = dt::parse_probe_desc(s, k)) << s;
	return d;
}
} // namespace

TEST(ProbeDesc, FullDescription)
{
	EXPECT_EQ(parse("syscall::openat:entry", desc_kind::name),
		  (probe_desc{"syscall", "", "openat", "entry"}));
}

TEST(ProbeDesc, FewerFieldsAlignRight)
{
	EXPECT_EQ(parse("BEGIN", desc_kind::name), (probe_desc{"", "", "", "BEGIN"}));
	EXPECT_EQ(parse("read:entry", desc_kind::name), (probe_desc{"", "", "read", "entry"}));
	EXPECT_EQ(parse("vmlinux:read:entry", desc_kind::name),
		  (probe_desc{"", "vmlinux", "read", "entry"}));
}

TEST(ProbeDesc, OptionKindsAnchorTheLastField)
{
	EXPECT_EQ(parse("syscall", desc_kind::provider), (probe_desc{"syscall", "", "", ""}));
	EXPECT_EQ(parse("vmlinux", desc_kind::mod), (probe_desc{"", "vmlinux", "", ""}));
	EXPECT_EQ(parse("fbt:vmlinux", desc_kind::mod), (probe_desc{"fbt", "vmlinux", "", ""}));
	EXPECT_EQ(parse("vfs_read", desc_kind::func), (probe_desc{"", "", "vfs_read", ""}));
	EXPECT_EQ(parse("fbt::vfs_read", desc_kind::func), (probe_desc{"fbt", "", "vfs_read", ""}));
}

TEST(ProbeDesc, EmptyFields)
{
	EXPECT_EQ(parse(":::", desc_kind::name), (probe_desc{"", "", "", ""}));
	EXPECT_EQ(parse("syscall:::", desc_kind::name), (probe_desc{"syscall", "", "", ""}));
}

// dtrace_xstr2desc() reads fields from the right, each with the ':' before
// it: a leading ':' closes the leftmost field read and is no field itself.
TEST(ProbeDesc, LeadingColonClosesTheLastFieldRead)
{
	EXPECT_EQ(parse(":vmlinux::", desc_kind::func), (probe_desc{"vmlinux", "", "", ""}));
	EXPECT_EQ(parse("::read:", desc_kind::func), (probe_desc{"", "read", "", ""}));
	EXPECT_EQ(parse(":genunix", desc_kind::mod), (probe_desc{"", "genunix", "", ""}));
	EXPECT_EQ(parse("::::BEGIN", desc_kind::name), (probe_desc{"", "", "", "BEGIN"}));
	EXPECT_EQ(parse(":", desc_kind::name), (probe_desc{"", "", "", ""}));
	EXPECT_THROW((void)dt::parse_probe_desc(":genunix::", desc_kind::mod), dt::error);
	EXPECT_THROW((void)dt::parse_probe_desc(":::::BEGIN", desc_kind::name), dt::error);
}

TEST(ProbeDesc, Overspecified)
{
	try {
		(void)dt::parse_probe_desc("a:b:c:d:e", desc_kind::name);
		FAIL() << "no error";
	} catch (const dt::error &e) {
		EXPECT_EQ(e.code(), dt::errc::usage);
		EXPECT_STREQ(e.what(), "Overspecified probe description");
	}
	EXPECT_THROW((void)dt::parse_probe_desc("a:b", desc_kind::provider), dt::error);
	EXPECT_THROW((void)dt::parse_probe_desc("a:b:c", desc_kind::mod), dt::error);
}

TEST(ProbeDesc, StrAndMatch)
{
	probe_desc d{"syscall", "", "open*", "entry"};
	EXPECT_EQ(d.str(), "syscall::open*:entry");
	EXPECT_TRUE(dt::desc_matches(d, "syscall", "vmlinux", "openat", "entry"));
	EXPECT_FALSE(dt::desc_matches(d, "syscall", "vmlinux", "openat", "return"));
	EXPECT_FALSE(dt::desc_matches(d, "fbt", "vmlinux", "openat", "entry"));
}
