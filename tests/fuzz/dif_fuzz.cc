// SPDX-License-Identifier: MIT
//
// dif_fuzz.cc - libFuzzer target: arbitrary bytes -> a DIF object
// (fuzz_difo.hpp) -> dif_validate() -> if valid, dif_emulate() twice (two
// probe firings sharing the dynamic-variable store) in the tests/dif
// sandbox. Whatever the bytes, nothing may crash, read or write out of
// bounds (ASan), hit undefined behaviour (UBSan) or break the VM's own
// postconditions checked below.
#include "dif_vectors.h"
#include "fuzz_difo.hpp"

#include <dif_emulate.h>
#include <dif_validate.h>

#include <cstdlib>

namespace {

void check(bool ok)
{
	if (!ok)
		std::abort();
}

dv_mem_t g_mem; // large: not on the stack

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dt::fuzz::difo_input in;
	if (!dt::fuzz::decode(data, size, in))
		return 0;
	dif_difo_t dp{};
	dp.text = in.text.data();
	dp.len = static_cast<uint32_t>(in.text.size());
	dp.inttab = in.ints.data();
	dp.intlen = static_cast<uint32_t>(in.ints.size());
	dp.strtab = in.strtab.c_str();
	dp.strlen = static_cast<uint32_t>(in.strtab.size());
	dp.vartab = in.vars.data();
	dp.varlen = static_cast<uint32_t>(in.vars.size());

	const dif_limits_t lim = DIF_LIMITS_DEFAULT;
	dif_verr_t err{};
	if (dif_validate(&dp, &lim, &err) != 0) {
		check(err.reason != nullptr);
		check(err.offset == 0xffffffffu || err.offset < dp.len * 4);
		return 0;
	}
	uint64_t globals[DV_NGLOBALS] = {}, locals[DV_NLOCALS] = {};
	dif_ctx_t c;
	// strsize stays small enough for dv_mem_t's variable buffers to matter.
	dv_setup(&c, &dp, &g_mem, in.strsize % 1024, 0);
	c.scratch_size = in.scratch && in.scratch < DV_SCRATCH_MAX ? in.scratch : DV_SCRATCH_MAX;
	c.globals = globals;
	c.nglobals = DV_NGLOBALS;
	c.locals = locals;
	c.nlocals = DV_NLOCALS;
	c.kernel_priv = in.kernel_priv;
	for (int firing = 0; firing < 2; firing++) {
		c.scratch_used = 0;
		c.strtok = 0;
		const int f = dif_emulate(&c);
		check(f == c.fault);
		check(f == 0 || c.fault_pc < dp.len * 4);
		check(c.scratch_used <= c.scratch_size);
		check(g_mem.dstate.nused <= g_mem.dstate.nchunks);
		dif_dstate_clean(&g_mem.dstate);
	}
	return 0;
}
