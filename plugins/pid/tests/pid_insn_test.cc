// SPDX-License-Identifier: MIT
// Instruction boundaries from capstone on known x86-64 code.
#include "insn_offsets.hpp"

#include <gtest/gtest.h>

#include <elf.h>

#include <cerrno>

namespace {

using dt::plugin::pid::insn_decoder;

TEST(PidInsn, X86_64Boundaries)
{
	insn_decoder d;
	std::string why;
	ASSERT_EQ(d.open(EM_X86_64, why), 0) << why;
	// push %rbp; mov %rsp,%rbp; mov %edi,%eax; movabs $1,%rcx; add %esi,%eax;
	// pop %rbp; ret
	const uint8_t code[] = {0x55, 0x48, 0x89, 0xe5, 0x89, 0xf8, 0x48, 0xb9, 1, 0,
				0,    0,    0,    0,    0,    0,    0x01, 0xf0, 0x5d, 0xc3};
	bool complete = false;
	auto offs = d.offsets(code, sizeof(code), complete);
	EXPECT_TRUE(complete);
	EXPECT_EQ(offs, (std::vector<uint64_t>{0, 1, 4, 6, 16, 18, 19}));
}

TEST(PidInsn, StopsAtBytesThatAreNoInstruction)
{
	insn_decoder d;
	std::string why;
	ASSERT_EQ(d.open(EM_X86_64, why), 0) << why;
	// nop; nop; then 0x06 (push %es), invalid in 64-bit mode.
	const uint8_t code[] = {0x90, 0x90, 0x06, 0x90};
	bool complete = true;
	auto offs = d.offsets(code, sizeof(code), complete);
	EXPECT_FALSE(complete);
	EXPECT_EQ(offs, (std::vector<uint64_t>{0, 1}));
}

TEST(PidInsn, I386AndUnknownMachines)
{
	insn_decoder d;
	std::string why;
	ASSERT_EQ(d.open(EM_386, why), 0) << why;
	// 0x48 is `dec %eax` (1 byte) in 32-bit mode, a REX prefix in 64-bit.
	const uint8_t code[] = {0x48, 0x89, 0xe5};
	bool complete = false;
	EXPECT_EQ(d.offsets(code, sizeof(code), complete), (std::vector<uint64_t>{0, 1}));
	EXPECT_TRUE(complete);
	insn_decoder other;
	EXPECT_EQ(other.open(EM_RISCV, why), -ENOTSUP);
	EXPECT_NE(why.find("243"), std::string::npos) << why;
}

} // namespace
