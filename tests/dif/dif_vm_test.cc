// SPDX-License-Identifier: MIT
/*
 * dif_vm_test.cc - replays the DIF vector table (dif_vectors.c) through the
 * validator and the interpreter; one GoogleTest case per row.
 */
#include "dif_vectors.h"

#include <dif_emulate.h>

#include <cstdint>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace {

/* A VM string result: an arena address or a host pointer (strtab, scratch). */
std::string string_at(uint64_t addr)
{
	const char *p;
	if (addr >= DV_KBASE && addr < DV_KBASE + DV_ARENA_SIZE)
		p = reinterpret_cast<const char *>(dv_karena + (addr - DV_KBASE));
	else
		p = reinterpret_cast<const char *>(static_cast<uintptr_t>(addr));
	return p ? std::string(p) : std::string("(null)");
}

class dif_vector_test : public ::testing::TestWithParam<uint32_t> {};

TEST_P(dif_vector_test, runs_as_expected)
{
	const dif_vector_t &v = dif_vectors[GetParam()];
	static dv_mem_t mem;
	dv_result_t r{};

	std::memset(mem.scratch, 0xa5, sizeof(mem.scratch));
	dv_run(&v, &mem, &r);
	if (v.kind == DV_REJECT) {
		ASSERT_TRUE(r.rejected) << "validator accepted it";
		EXPECT_STREQ(r.verr.reason, v.reason);
		EXPECT_EQ(r.verr.offset, v.offset);
		return;
	}
	ASSERT_FALSE(r.rejected) << "rejected at " << r.verr.offset << ": " << r.verr.reason;
	if (v.kind == DV_FAULT) {
		EXPECT_EQ(r.fault, v.fault);
		EXPECT_EQ(r.fault_pc, v.fault_pc);
		if (!v.any_illval) {
			EXPECT_EQ(r.illval, v.illval) << std::hex << "0x" << r.illval;
		}
	} else {
		ASSERT_EQ(r.fault, 0)
			<< "fault at " << r.fault_pc << " illval 0x" << std::hex << r.illval;
		if (v.rstr)
			EXPECT_EQ(string_at(r.rval), v.rstr);
		else
			EXPECT_EQ(r.rval, v.rval) << std::hex << "0x" << r.rval;
	}
	if (v.check_g0) {
		EXPECT_EQ(r.g0, v.g0);
	}
	if (v.check_drops) {
		EXPECT_EQ(r.drops, v.drops);
	}
}

INSTANTIATE_TEST_SUITE_P(vectors, dif_vector_test, ::testing::Range<uint32_t>(0, dif_nvectors),
			 [](const ::testing::TestParamInfo<uint32_t> &i) {
				 return std::string(dif_vectors[i.param].name);
			 });

/* Row names are the test names: they must be unique. */
TEST(dif_vectors, names_are_unique)
{
	for (uint32_t i = 0; i < dif_nvectors; i++)
		for (uint32_t j = i + 1; j < dif_nvectors; j++) {
			EXPECT_STRNE(dif_vectors[i].name, dif_vectors[j].name);
		}
}

/* The emulator resets its state: a context can be reused across firings. */
TEST(dif_emulate, context_is_reusable)
{
	static const dif_instr_t text[] = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	static const uint64_t ints[] = {7};
	dif_difo_t dp{};
	dp.text = text;
	dp.len = 2;
	dp.inttab = ints;
	dp.intlen = 1;
	dif_ctx_t c{};
	c.ops = &dv_env_ops;
	c.difo = &dp;
	c.fault = DTRACEFLT_DIVZERO;
	EXPECT_EQ(dif_emulate(&c), 0);
	EXPECT_EQ(c.rval, 7u);
	EXPECT_EQ(dif_emulate(&c), 0);
	EXPECT_EQ(c.rval, 7u);
}

/* The validator's limits: fewer registers, a shorter program. */
TEST(dif_validate, honours_limits)
{
	static const dif_instr_t text[] = {DIF_INSTR_FMT(DIF_OP_ADD, 1, 1, 4), DIF_INSTR_RET(4)};
	dif_difo_t dp{};
	dp.text = text;
	dp.len = 2;
	dif_limits_t lim = DIF_LIMITS_DEFAULT;
	dif_verr_t err{};
	EXPECT_EQ(dif_validate(&dp, &lim, &err), 0);
	lim.nregs = 4;
	EXPECT_EQ(dif_validate(&dp, &lim, &err), -1);
	EXPECT_STREQ(err.reason, "invalid register");
	EXPECT_EQ(err.offset, 0u);
	lim = DIF_LIMITS_DEFAULT;
	lim.max_len = 1;
	EXPECT_EQ(dif_validate(&dp, &lim, &err), -1);
	EXPECT_STREQ(err.reason, "DIF object too large");
	lim = DIF_LIMITS_DEFAULT;
	lim.nregs = DIF_DIR_NREGS + 1;
	EXPECT_EQ(dif_validate(&dp, &lim, &err), -1);
	EXPECT_STREQ(err.reason, "invalid register count");
}

} // namespace
