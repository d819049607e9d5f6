// SPDX-License-Identifier: MIT
// A tracefs event's fields as arguments (record_args.hpp), on format
// texts as the kernel prints them.
#include "record_args.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

using namespace dt::plugin;
using namespace dt::plugin::sdt;

namespace {

constexpr const char *k_common =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

event_format parse(const std::string &fields)
{
	event_format f;
	std::string text = "name: x\nID: 7\nformat:\n" + std::string(k_common) + fields +
			   "\nprint fmt: \"\"\n";
	EXPECT_TRUE(parse_event_format(text, f));
	return f;
}

// Every type the test's formats use but "mystery_t" is known.
bool known(std::string_view t)
{
	return t != "mystery_t" && t != "struct mystery";
}

TEST(record_args, sched_switch_fields_in_order_with_sizes_and_signs)
{
	record_layout l =
		layout_of(parse("\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
				"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
				"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
				"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
				"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
				"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
				"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"),
			  known);
	ASSERT_EQ(l.args.size(), 7u);
	EXPECT_EQ(l.fields, 7u);
	EXPECT_EQ(l.size, 64u);
	EXPECT_EQ(l.args[0].name, "prev_comm");
	EXPECT_EQ(l.args[0].type, "string");
	EXPECT_EQ(l.args[0].offset, 8);
	EXPECT_EQ(l.args[0].fmt, DT_BPF_TP_ADDR);
	EXPECT_EQ(l.args[1].name, "prev_pid");
	EXPECT_EQ(l.args[1].type, "pid_t");
	EXPECT_EQ(l.args[1].fmt, DT_BPF_TP_SIZE(4) | DT_BPF_TP_SIGNED);
	EXPECT_EQ(l.args[2].offset, 28);
	EXPECT_EQ(l.args[3].type, "long");
	EXPECT_EQ(l.args[3].fmt, DT_BPF_TP_SIZE(8) | DT_BPF_TP_SIGNED);
	EXPECT_EQ(l.args[6].name, "next_prio");
}

TEST(record_args, data_loc_and_rel_loc_char_arrays_are_strings)
{
	record_layout l = layout_of(
		parse("\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
		      "\tfield:__rel_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
		      "\tfield:__data_loc unsigned long[] ips;\toffset:16;\tsize:4;\tsigned:0;\n"),
		known);
	ASSERT_EQ(l.args.size(), 3u);
	EXPECT_EQ(l.args[0].type, "string");
	EXPECT_EQ(l.args[1].type, "string");
	EXPECT_EQ(l.args[0].fmt, DT_BPF_TP_SIZE(4) | DT_BPF_TP_DATA_LOC);
	EXPECT_EQ(l.args[1].fmt, DT_BPF_TP_SIZE(4) | DT_BPF_TP_REL_LOC);
	EXPECT_EQ(l.args[2].type, "unsigned long *");
}

TEST(record_args, unknown_types_become_integers_of_their_size_or_void_pointers)
{
	record_layout l = layout_of(
		parse("\tfield:mystery_t a;\toffset:8;\tsize:2;\tsigned:1;\n"
		      "\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;\n"
		      "\tfield:const struct mystery * c;\toffset:16;\tsize:8;\tsigned:0;\n"
		      "\tfield:mystery_t d;\toffset:24;\tsize:8;\tsigned:0;\n"),
		known);
	ASSERT_EQ(l.args.size(), 4u);
	EXPECT_EQ(l.args[0].type, "int16_t");
	EXPECT_EQ(l.args[1].type, "unsigned int");
	EXPECT_EQ(l.args[1].fmt, DT_BPF_TP_SIZE(4));
	EXPECT_EQ(l.args[2].type, "void *");
	EXPECT_EQ(l.args[3].type, "uint64_t");
}

TEST(record_args, records_and_unaligned_scalars_are_read_by_address)
{
	record_layout l = layout_of(parse("\tfield:struct foo s;\toffset:8;\tsize:12;\tsigned:0;\n"
					  "\tfield:u32 odd;\toffset:22;\tsize:4;\tsigned:0;\n"
					  "\tfield:u8 addr[6];\toffset:26;\tsize:6;\tsigned:0;\n"),
				    known);
	ASSERT_EQ(l.args.size(), 3u);
	EXPECT_EQ(l.args[2].type, "u8 *");
	EXPECT_EQ(l.args[2].fmt, DT_BPF_TP_ADDR);
	EXPECT_EQ(l.args[0].type, "struct foo *");
	EXPECT_EQ(l.args[0].fmt, DT_BPF_TP_ADDR);
	EXPECT_EQ(l.args[1].type, "u32 *");
	EXPECT_EQ(l.args[1].fmt, DT_BPF_TP_ADDR);
}

TEST(record_args, at_most_ten_arguments_but_every_field_counted)
{
	std::string fields;
	for (int i = 0; i < 12; i++)
		fields += "\tfield:u64 f" + std::to_string(i) +
			  ";\toffset:" + std::to_string(8 + 8 * i) + ";\tsize:8;\tsigned:0;\n";
	record_layout l = layout_of(parse(fields), known);
	EXPECT_EQ(l.args.size(), k_max_args);
	EXPECT_EQ(l.fields, 12u);
	EXPECT_EQ(l.size, 8u + 8 * 12);
	EXPECT_EQ(l.args.back().name, "f9");
}

TEST(record_args, base_type_strips_qualifiers_and_pointers)
{
	EXPECT_EQ(base_type("const struct sk_buff *"), "struct sk_buff");
	EXPECT_EQ(base_type("unsigned int"), "unsigned int");
	EXPECT_EQ(base_type("const char *const *"), "char");
	EXPECT_TRUE(is_c_base_type("unsigned long long"));
	EXPECT_TRUE(is_c_base_type("_Bool"));
	EXPECT_FALSE(is_c_base_type("pid_t"));
	EXPECT_FALSE(is_c_base_type(""));
}

} // namespace
