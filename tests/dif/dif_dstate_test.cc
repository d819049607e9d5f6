// SPDX-License-Identifier: MIT
/*
 * dif_dstate_test.cc - dynamic variables and by-ref storage across several
 * runs (probe firings), and the subroutines whose effect is outside rval:
 * what the vector table (one program, one run) cannot express.
 */
#include "dif_vectors.h"

#include <dif_emulate.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

#define STV(op, v, s) DIF_INSTR_STV(DIF_OP_##op, v, s)
#define LDV(op, v, d) DIF_INSTR_LDV(DIF_OP_##op, v, d)

dtrace_difv_t var(uint32_t id, uint8_t kind, uint8_t scope, uint8_t tkind)
{
	dtrace_difv_t v{};
	v.dtdv_id = id;
	v.dtdv_kind = kind;
	v.dtdv_scope = scope;
	v.dtdv_type.dtdt_kind = tkind;
	v.dtdv_type.dtdt_size = 8;
	return v;
}

/* A program plus the context it runs in; run() is one probe firing. */
struct machine {
	dv_mem_t mem{};
	dif_difo_t dp{};
	dif_ctx_t c{};
	uint64_t globals[DV_NGLOBALS]{};
	std::vector<dif_instr_t> text;
	std::vector<uint64_t> ints;
	std::string strs;
	std::vector<dtrace_difv_t> vars;

	void load(std::vector<dif_instr_t> t, std::vector<uint64_t> i = {}, std::string s = {},
		  std::vector<dtrace_difv_t> v = {})
	{
		text = std::move(t);
		ints = std::move(i);
		strs = std::move(s);
		vars = std::move(v);
		dp.text = text.data();
		dp.len = static_cast<uint32_t>(text.size());
		dp.inttab = ints.data();
		dp.intlen = static_cast<uint32_t>(ints.size());
		dp.strtab = strs.empty() ? nullptr : strs.c_str();
		dp.strlen = strs.empty() ? 0 : static_cast<uint32_t>(strs.size() + 1);
		dp.vartab = vars.data();
		dp.varlen = static_cast<uint32_t>(vars.size());
		c.difo = &dp;
		dif_limits_t lim = DIF_LIMITS_DEFAULT;
		dif_verr_t err{};
		ASSERT_EQ(dif_validate(&dp, &lim, &err), 0) << err.reason << " at " << err.offset;
	}
	void setup(uint64_t dynvarsize = 0)
	{
		dv_setup(&c, &dp, &mem, 0, dynvarsize);
		c.globals = globals;
		c.nglobals = DV_NGLOBALS;
	}
	int run()
	{
		c.scratch_used = 0;
		c.strtok = 0;
		return dif_emulate(&c);
	}
};

TEST(dif_dstate, thread_local_survives_firings_per_thread)
{
	machine m;
	const auto tv = var(0x500, DIFV_KIND_SCALAR, DIFV_SCOPE_THREAD, DIF_TYPE_CTF);
	m.load({DIF_INSTR_SETX(0, 1), STV(STTS, 0x500, 1), DIF_INSTR_RET(0)}, {1234}, {}, {tv});
	m.setup();
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(m.mem.dstate.nused, 1u);

	machine r; /* a second program, same store */
	r.load({LDV(LDTS, 0x500, 1), DIF_INSTR_RET(1)}, {}, {}, {tv});
	r.c = m.c;
	r.c.difo = &r.dp;
	ASSERT_EQ(dif_emulate(&r.c), 0);
	EXPECT_EQ(r.c.rval, 1234u);
	r.c.thread_key = DV_TID + 1; /* another thread sees nothing */
	ASSERT_EQ(dif_emulate(&r.c), 0);
	EXPECT_EQ(r.c.rval, 0u);

	dif_dstate_clear_thread(&m.mem.dstate, DV_TID); /* the thread exits */
	EXPECT_EQ(m.mem.dstate.nused, 0u);
	r.c.thread_key = DV_TID;
	ASSERT_EQ(dif_emulate(&r.c), 0);
	EXPECT_EQ(r.c.rval, 0u);
}

TEST(dif_dstate, deleted_value_readable_until_clean_then_reused)
{
	machine m;
	const auto av = var(0x500, DIFV_KIND_ARRAY, DIFV_SCOPE_GLOBAL, DIF_TYPE_CTF);
	/* a[r1] = r2 (r1, r2 from the int table) */
	m.load({DIF_INSTR_SETX(0, 1), DIF_INSTR_SETX(1, 2),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1), STV(STGAA, 0x500, 2),
		DIF_INSTR_RET(0)},
	       {1, 10}, {}, {av});
	m.setup(1000); /* exactly one chunk */
	ASSERT_EQ(m.mem.dstate.nchunks, 1u);
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(m.mem.dstate.nused, 1u);
	m.ints[1] = 0; /* a[1] = 0: delete */
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(m.mem.dstate.nused, 0u);
	EXPECT_NE(m.mem.dstate.dirty, 0u);
	m.ints[0] = 2; /* a[2] = 20: no free chunk yet -> dirty drop */
	m.ints[1] = 20;
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(m.mem.dstate.drops, 1u);
	EXPECT_EQ(m.mem.dstate.dirty_drops, 1u);
	dif_dstate_clean(&m.mem.dstate);
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(m.mem.dstate.nused, 1u);
	EXPECT_EQ(m.mem.dstate.drops, 1u);
}

TEST(dif_dstate, many_keys_fill_and_hash)
{
	static uint64_t arena[64 * 1024 / 8];
	dif_dstate_t ds;
	ASSERT_EQ(dif_dstate_init(&ds, arena, sizeof(arena), DIF_DSTATE_CHUNKSIZE(3, 0, 8)), 0);
	machine m;
	const auto av = var(0x500, DIFV_KIND_ARRAY, DIFV_SCOPE_GLOBAL, DIF_TYPE_CTF);
	m.load({DIF_INSTR_SETX(0, 1), DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
		DIF_INSTR_SETX(1, 2), DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 2), STV(STGAA, 0x500, 2),
		LDV(LDGAA, 0x500, 3), DIF_INSTR_RET(3)},
	       {0, 1000}, {}, {av});
	m.setup();
	m.c.dstate = &ds;
	for (uint64_t k = 0; k < ds.nchunks + 5; k++) {
		m.ints[0] = k;
		ASSERT_EQ(m.run(), 0);
		EXPECT_EQ(m.c.rval, k < ds.nchunks ? k + 1000 : 0) << k;
	}
	EXPECT_EQ(ds.nused, ds.nchunks);
	EXPECT_EQ(ds.drops, 5u);
}

TEST(dif_dstate, init_rejects_what_cannot_hold_a_chunk)
{
	static uint64_t arena[16];
	dif_dstate_t ds;
	EXPECT_EQ(dif_dstate_init(&ds, arena, sizeof(arena), 512), -1);
	EXPECT_EQ(dif_dstate_init(&ds, nullptr, 4096, 64), -1);
	EXPECT_EQ(dif_dstate_init(&ds, reinterpret_cast<char *>(arena) + 1, 64, 16), -1);
	EXPECT_EQ(dif_dstate_init(&ds, arena, sizeof(arena), 48), 0);
	EXPECT_GE(ds.nchunks, 1u);
}

TEST(dif_dstate, no_store_is_illop)
{
	machine m;
	const auto tv = var(0x500, DIFV_KIND_SCALAR, DIFV_SCOPE_THREAD, DIF_TYPE_CTF);
	m.load({LDV(LDTS, 0x500, 1), DIF_INSTR_RET(1)}, {}, {}, {tv});
	m.setup();
	m.c.dstate = nullptr;
	EXPECT_EQ(m.run(), DTRACEFLT_ILLOP);
	EXPECT_EQ(m.c.illval, 0x500u);
}

TEST(dif_byref, string_global_is_a_copy_in_its_buffer)
{
	machine m;
	const auto sv = var(0x500, DIFV_KIND_SCALAR, DIFV_SCOPE_GLOBAL, DIF_TYPE_STRING);
	m.load({DIF_INSTR_SETS(0, 1), STV(STGS, 0x500, 1), LDV(LDGS, 0x500, 2), DIF_INSTR_RET(2)},
	       {}, "hello", {sv});
	m.setup();
	ASSERT_EQ(m.run(), 0);
	const auto *data = m.mem.grefs[0].data;
	EXPECT_EQ(m.c.rval, reinterpret_cast<uintptr_t>(data + DIF_VARBUF_HDR));
	EXPECT_STREQ(reinterpret_cast<const char *>(data + DIF_VARBUF_HDR), "hello");
	EXPECT_NE(data[0], DIF_VARBUF_NULL);
}

TEST(dif_byref, missing_buffers_are_illop)
{
	machine m;
	const auto sv = var(0x500, DIFV_KIND_SCALAR, DIFV_SCOPE_LOCAL, DIF_TYPE_STRING);
	m.load({LDV(LDLS, 0x500, 1), DIF_INSTR_RET(1)}, {}, {}, {sv});
	m.setup();
	m.c.lrefs = nullptr;
	EXPECT_EQ(m.run(), DTRACEFLT_ILLOP);
	m.setup();
	m.c.varmem_size = 8; /* buffer outside varmem */
	EXPECT_EQ(m.run(), DTRACEFLT_ILLOP);
}

/* Reference xoroshiro128+ (Blackman & Vigna, 2016: a=55, b=14, c=36). */
uint64_t xoroshiro_next(uint64_t s[2])
{
	auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
	const uint64_t s0 = s[0];
	uint64_t s1 = s[1];
	const uint64_t result = s0 + s1;
	s1 ^= s0;
	s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
	s[1] = rotl(s1, 36);
	return result;
}

TEST(dif_subr, rand_is_xoroshiro128_plus_with_ctx_state)
{
	machine m;
	m.load({DIF_INSTR_CALL(DIF_SUBR_RAND, 1), DIF_INSTR_RET(1)});
	m.setup();
	m.c.rand_state[0] = 0x0123456789abcdefull;
	m.c.rand_state[1] = 0xfedcba9876543210ull;
	uint64_t ref[2] = {m.c.rand_state[0], m.c.rand_state[1]};
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(m.run(), 0);
		EXPECT_EQ(m.c.rval, xoroshiro_next(ref));
	}
	EXPECT_EQ(m.c.rand_state[0], ref[0]);
	EXPECT_EQ(m.c.rand_state[1], ref[1]);
}

TEST(dif_subr, copyout_and_copyoutstr_write_through_the_env)
{
	machine m;
	m.load({DIF_INSTR_SETS(0, 1), DIF_INSTR_SETX(0, 2), DIF_INSTR_SETX(1, 3),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 2),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 3),
		DIF_INSTR_CALL(DIF_SUBR_COPYOUTSTR, 4), DIF_INSTR_RET(4)},
	       {DV_OBASE + 4, 16}, "abc");
	m.setup();
	std::memset(m.mem.uout, 'x', sizeof(m.mem.uout));
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(std::string(reinterpret_cast<char *>(m.mem.uout), 9),
		  std::string("xxxxabc\0x", 9));
	m.ints[1] = 2; /* maxlen 2: no NUL */
	std::memset(m.mem.uout, 'x', sizeof(m.mem.uout));
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(std::string(reinterpret_cast<char *>(m.mem.uout), 7), "xxxxabx");
	dif_env_ops_t ops = dv_env_ops; /* an engine without destructive actions */
	ops.copyout = nullptr;
	m.c.ops = &ops;
	EXPECT_EQ(m.run(), DTRACEFLT_ILLOP);
	EXPECT_EQ(m.c.illval, static_cast<uint64_t>(DIF_SUBR_COPYOUTSTR));
}

TEST(dif_subr, optional_ops_absent_are_illop)
{
	machine m;
	m.load({DIF_INSTR_CALL(DIF_SUBR_SPECULATION, 1), DIF_INSTR_RET(1)});
	m.setup();
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(m.c.rval, static_cast<uint64_t>(DV_SPEC));
	dif_env_ops_t ops = dv_env_ops;
	ops.speculation = nullptr;
	m.c.ops = &ops;
	EXPECT_EQ(m.run(), DTRACEFLT_ILLOP);
	EXPECT_EQ(m.c.illval, static_cast<uint64_t>(DIF_SUBR_SPECULATION));
}

/* A bulk copyin op replaces the byte loads; its faults carry the address. */
void bulk_copyin(void *, uint64_t uaddr, void *dst, uint64_t size, uint16_t *fault)
{
	if (uaddr != 0x7000) {
		*fault = DTRACEFLT_BADADDR;
		return;
	}
	std::memset(dst, 'z', size);
}

TEST(dif_subr, copyin_uses_the_bulk_op)
{
	machine m;
	m.load({DIF_INSTR_SETX(0, 1), DIF_INSTR_SETX(1, 2),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 2),
		DIF_INSTR_CALL(DIF_SUBR_COPYIN, 3), DIF_INSTR_LOAD(DIF_OP_LDUB, 3, 4),
		DIF_INSTR_RET(4)},
	       {0x7000, 3});
	m.setup();
	dif_env_ops_t ops = dv_env_ops;
	ops.copyin = bulk_copyin;
	m.c.ops = &ops;
	ASSERT_EQ(m.run(), 0);
	EXPECT_EQ(m.c.rval, static_cast<uint64_t>('z'));
	m.ints[0] = 0x7008;
	EXPECT_EQ(m.run(), DTRACEFLT_BADADDR);
	EXPECT_EQ(m.c.illval, 0x7008u);
	EXPECT_EQ(m.c.fault_pc, 4u * 4);
}

TEST(dif_subr, strtok_state_is_per_firing)
{
	machine m;
	m.load({DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 0), DIF_INSTR_SETS(0, 2),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 0, 2),
		DIF_INSTR_CALL(DIF_SUBR_STRTOK, 3), DIF_INSTR_RET(3)},
	       {}, ",");
	m.setup();
	EXPECT_EQ(m.run(), DTRACEFLT_BADADDR); /* strtok(NULL) with nothing saved */
}

} // namespace
