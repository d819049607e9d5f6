// SPDX-License-Identifier: MIT
// The tracefs `format` parser on texts as the kernel prints them.
#include "tracefs_format.hpp"

#include <gtest/gtest.h>

using namespace dt::plugin;

namespace {

constexpr const char *k_openat =
	"name: sys_enter_openat\n"
	"ID: 782\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"dfd: 0x%08lx, filename: 0x%08lx\", ((unsigned long)(REC->dfd))\n";

} // namespace

TEST(TracefsFormat, ParsesOpenatEntry)
{
	event_format f;
	ASSERT_TRUE(parse_event_format(k_openat, f));
	EXPECT_EQ(f.name, "sys_enter_openat");
	ASSERT_TRUE(f.has_id);
	EXPECT_EQ(f.id, 782u);
	ASSERT_EQ(f.fields.size(), 9u);
	EXPECT_EQ(f.fields[0].type, "unsigned short");
	EXPECT_EQ(f.fields[0].name, "common_type");

	auto args = syscall_args(f);
	ASSERT_EQ(args.size(), 4u);
	EXPECT_EQ(args[0].type, "int");
	EXPECT_EQ(args[0].name, "dfd");
	EXPECT_EQ(args[1].type, "const char *");
	EXPECT_EQ(args[1].name, "filename");
	EXPECT_EQ(args[2].type, "int");
	EXPECT_EQ(args[2].name, "flags");
	EXPECT_EQ(args[3].type, "umode_t");
	EXPECT_EQ(args[3].name, "mode");
	// Where each field lies in the record.
	EXPECT_EQ(f.fields[0].offset, 0u);
	EXPECT_EQ(f.fields[0].size, 2u);
	EXPECT_EQ(args[0].offset, 16u);
	EXPECT_EQ(args[3].offset, 40u);
	EXPECT_EQ(args[3].size, 8u);
}

TEST(TracefsFormat, NoSyscallNrMeansNoArgs)
{
	event_format f;
	ASSERT_TRUE(parse_event_format("name: x\nID: 1\nformat:\n"
				       "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n",
				       f));
	EXPECT_TRUE(syscall_args(f).empty());
}

TEST(TracefsFormat, RejectsTextWithoutFormatSection)
{
	event_format f;
	EXPECT_FALSE(parse_event_format("name: x\nID: 1\n", f));
	EXPECT_FALSE(parse_event_format("", f));
}

TEST(TracefsFormat, BadIdIsNotAnId)
{
	event_format f;
	ASSERT_TRUE(parse_event_format("ID: 12x\nformat:\n", f));
	EXPECT_FALSE(f.has_id);
}

TEST(TracefsFormat, SplitsDeclarations)
{
	format_field f;
	ASSERT_TRUE(split_field_decl("const char *const * argv", f));
	EXPECT_EQ(f.type, "const char *const *");
	EXPECT_EQ(f.name, "argv");
	ASSERT_TRUE(split_field_decl("unsigned long len", f));
	EXPECT_EQ(f.type, "unsigned long");
	EXPECT_EQ(f.name, "len");
	ASSERT_TRUE(split_field_decl("char comm[16]", f));
	EXPECT_EQ(f.type, "char[16]");
	EXPECT_EQ(f.name, "comm");
	ASSERT_TRUE(split_field_decl("struct foo *p", f));
	EXPECT_EQ(f.type, "struct foo *");
	EXPECT_EQ(f.name, "p");
	EXPECT_FALSE(split_field_decl("int", f));
	EXPECT_FALSE(split_field_decl("", f));
	EXPECT_FALSE(split_field_decl("char *", f));
}
