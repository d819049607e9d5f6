// SPDX-License-Identifier: MIT
// The usdt provider's reading of stapsdt notes (stapsdt.hpp): operands in
// every form <sys/sdt.h> and dtrace -h emit, and the ones a probe cannot
// read; DTrace's names for note names; and the notes of a program built
// with a dtrace -h header (usdt_target): its sites, functions and
// semaphore.
#include "stapsdt.hpp"

#include <gtest/gtest.h>

namespace {

using namespace dt::plugin::usdt;

std::vector<dt_usdt_arg_t> parse(const std::string &s, bool ok = true)
{
	std::vector<dt_usdt_arg_t> v;
	std::string why;
	EXPECT_EQ(parse_operands(s, v, why), ok) << s << ": " << why;
	return v;
}

TEST(Stapsdt, RegistersByEveryNameAndSize)
{
	auto v = parse("-4@%edi 8@%rax 2@%r9w -1@%sil 8@%r15");
	ASSERT_EQ(v.size(), 5u);
	EXPECT_EQ(v[0].kind, DT_USDT_ARG_REG);
	EXPECT_EQ(v[0].size, -4);
	EXPECT_EQ(v[0].reg, 112); // pt_regs di
	EXPECT_EQ(v[1].reg, 80);  // ax
	EXPECT_EQ(v[2].reg, 64);  // r9
	EXPECT_EQ(v[2].size, 2);
	EXPECT_EQ(v[3].reg, 104); // si
	EXPECT_EQ(v[3].size, -1);
	EXPECT_EQ(v[4].reg, 0); // r15
}

TEST(Stapsdt, ConstantsAndStackSlots)
{
	auto v = parse("-4@$-5 8@$0x10 -8@-16(%rbp) 4@(%rsp) 8@112(%rsp)");
	ASSERT_EQ(v.size(), 5u);
	EXPECT_EQ(v[0].kind, DT_USDT_ARG_CONST);
	EXPECT_EQ(v[0].value, -5);
	EXPECT_EQ(v[1].value, 16);
	EXPECT_EQ(v[2].kind, DT_USDT_ARG_MEM);
	EXPECT_EQ(v[2].reg, 32); // bp
	EXPECT_EQ(v[2].value, -16);
	EXPECT_EQ(v[3].reg, 152); // sp
	EXPECT_EQ(v[3].value, 0);
	EXPECT_EQ(v[4].value, 112);
}

TEST(Stapsdt, BaseIndexScale)
{
	auto v = parse("8@(%r10,%rdx,8) -4@-8(%rbp,%rax) 2@16(%rsp,%rcx,2)");
	ASSERT_EQ(v.size(), 3u);
	EXPECT_EQ(v[0].kind, DT_USDT_ARG_MEM);
	EXPECT_EQ(v[0].reg, 56);   // r10
	EXPECT_EQ(v[0].index, 96); // dx
	EXPECT_EQ(v[0].scale, 8);
	EXPECT_EQ(v[0].value, 0);
	EXPECT_EQ(v[1].reg, 32);
	EXPECT_EQ(v[1].index, 80);
	EXPECT_EQ(v[1].scale, 1);
	EXPECT_EQ(v[1].value, -8);
	EXPECT_EQ(v[2].index, 88);
	EXPECT_EQ(v[2].scale, 2);
	EXPECT_EQ(v[2].value, 16);
}

TEST(Stapsdt, OperandsAProbeCannotReadAreRefused)
{
	EXPECT_EQ(parse("8@%rdi 8@counter(%rip)", false).size(), 1u);
	parse("8@-8(%rbp,%rax,3)", false);
	parse("3@%rdi", false);
	parse("8@%xmm0", false);
	EXPECT_TRUE(parse("").empty());
}

TEST(Stapsdt, DoubleUnderscoreIsADash)
{
	EXPECT_EQ(probe_name("function__entry"), "function-entry");
	EXPECT_EQ(probe_name("gc__start"), "gc-start");
	EXPECT_EQ(probe_name("line"), "line");
}

TEST(Stapsdt, ADtraceHHeaderMakesNotesWithSemaphores)
{
	std::vector<site> v;
	std::string why;
	ASSERT_EQ(read_sites(DT_USDT_TARGET, v, why), 0) << why;
	ASSERT_EQ(v.size(), 2u);
	const site *placed = nullptr, *closed = nullptr;
	for (const site &s : v)
		(s.name == "order__placed" ? placed : closed) = &s;
	ASSERT_NE(placed, nullptr);
	ASSERT_NE(closed, nullptr);
	EXPECT_EQ(placed->provider, "shop");
	EXPECT_EQ(closed->name, "closed");
	EXPECT_EQ(placed->func, "main");
	EXPECT_NE(placed->pc_offset, 0u);
	EXPECT_NE(placed->sem_offset, 0u);
	std::vector<dt_usdt_arg_t> args;
	EXPECT_TRUE(parse_operands(placed->operands, args, why)) << placed->operands;
	ASSERT_EQ(args.size(), 4u) << placed->operands;
	EXPECT_EQ(args[0].size, -4) << placed->operands; // int
	EXPECT_EQ(args[1].size, 8) << placed->operands;	 // char *
	EXPECT_EQ(args[2].size, -8) << placed->operands; // long
	EXPECT_EQ(args[3].size, -4) << placed->operands; // short, promoted
	EXPECT_TRUE(closed->operands.empty());
}

TEST(Stapsdt, AnObjectWithoutNotesHasNoSites)
{
	std::vector<site> v;
	std::string why;
	EXPECT_EQ(read_sites("/bin/true", v, why), 0) << why;
	EXPECT_TRUE(v.empty());
	EXPECT_EQ(read_sites("/etc/hostname", v, why), -ENOEXEC);
	EXPECT_EQ(read_sites("/nonexistent", v, why), -ENOENT);
}

} // namespace
