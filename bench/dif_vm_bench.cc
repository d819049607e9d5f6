// SPDX-License-Identifier: MIT
// What the DIF VM costs per instruction class: each benchmark runs one
// validated DIF object of N instructions of one class (plus the setup and
// the ret) through dif_emulate(), and reports instructions per second.
//   build/bench/dif_vm_bench
// The environment is an in-memory arena, as in the unit tests: this
// measures the interpreter, not the engine's memory access.
extern "C" {
#include <dif_emulate.h>
#include <dif_validate.h>
}

#include <benchmark/benchmark.h>

#include <array>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace {

constexpr uint64_t k_base = 0x10000;
std::array<uint8_t, 256> g_arena{};

uint64_t arena_load(void *, uint64_t addr, uint32_t size, enum dif_space, uint16_t *fault)
{
	if (addr < k_base || addr + size > k_base + g_arena.size()) {
		*fault = DTRACEFLT_BADADDR;
		return 0;
	}
	uint64_t v = 0;
	std::memcpy(&v, g_arena.data() + (addr - k_base), size);
	return v;
}

uint64_t no_copystr(void *, uint64_t, char *dst, uint64_t, enum dif_space, uint16_t *fault)
{
	dst[0] = '\0';
	*fault = DTRACEFLT_BADADDR;
	return 0;
}

uint64_t builtin(void *, uint32_t id, uint64_t, uint16_t *fault)
{
	if (id == DIF_VAR_PID)
		return 4242;
	*fault = DTRACEFLT_ILLOP;
	return 0;
}

uint64_t getarg(void *, uint64_t n, uint16_t *)
{
	return 100 + n;
}

// Filled member by member: dif_env_ops_t grows (optional ops at its end).
const dif_env_ops_t k_ops = [] {
	dif_env_ops_t o{};
	o.load = arena_load;
	o.copystr = no_copystr;
	o.builtin = builtin;
	o.getarg = getarg;
	return o;
}();

struct vm_program {
	std::vector<dif_instr_t> text;
	std::vector<uint64_t> ints;
	std::string strs;
	std::vector<dtrace_difv_t> vars;
	dif_difo_t difo{};

	void seal()
	{
		difo.text = text.data();
		difo.len = static_cast<uint32_t>(text.size());
		difo.inttab = ints.data();
		difo.intlen = static_cast<uint32_t>(ints.size());
		difo.strtab = strs.data();
		difo.strlen = static_cast<uint32_t>(strs.size());
		difo.vartab = vars.data();
		difo.varlen = static_cast<uint32_t>(vars.size());
		difo.rtype.dtdt_size = 8;
		dif_limits_t lim = DIF_LIMITS_DEFAULT;
		dif_verr_t err{};
		if (dif_validate(&difo, &lim, &err) != 0)
			throw std::runtime_error(err.reason);
	}
};

// Run `p` repeatedly; `body` is the number of instructions of the class.
void run(benchmark::State &st, vm_program &p, int64_t body)
{
	p.seal();
	std::vector<char> scratch(4096);
	std::array<uint64_t, 4> globals{};
	dif_ctx_t ctx{};
	for (auto _ : st) {
		std::memset(&ctx, 0, sizeof(ctx));
		ctx.ops = &k_ops;
		ctx.difo = &p.difo;
		ctx.scratch = scratch.data();
		ctx.scratch_size = scratch.size();
		ctx.globals = globals.data();
		ctx.nglobals = globals.size();
		if (dif_emulate(&ctx) != 0)
			st.SkipWithError("fault");
		benchmark::DoNotOptimize(ctx.rval);
	}
	st.SetItemsProcessed(st.iterations() * body);
}

constexpr int k_body = 64;

void BM_alu(benchmark::State &st)
{
	vm_program p;
	p.ints = {3};
	p.text.push_back(DIF_INSTR_SETX(0, 1));
	for (int i = 0; i < k_body; i++)
		p.text.push_back(DIF_INSTR_FMT(i % 2 ? DIF_OP_XOR : DIF_OP_ADD, 1, 1, 2));
	p.text.push_back(DIF_INSTR_RET(2));
	run(st, p, k_body);
}
BENCHMARK(BM_alu);

void BM_cmp_branch(benchmark::State &st)
{
	vm_program p;
	p.ints = {3};
	p.text.push_back(DIF_INSTR_SETX(0, 1));
	for (int i = 0; i < k_body / 2; i++) {
		p.text.push_back(DIF_INSTR_CMP(DIF_OP_CMP, 1, 0));
		uint32_t next = static_cast<uint32_t>(p.text.size() + 1);
		p.text.push_back(DIF_INSTR_BRANCH(DIF_OP_BE, next));
	}
	p.text.push_back(DIF_INSTR_RET(1));
	run(st, p, k_body);
}
BENCHMARK(BM_cmp_branch);

void BM_load_env(benchmark::State &st)
{
	vm_program p;
	p.ints = {k_base + 8};
	p.text.push_back(DIF_INSTR_SETX(0, 1));
	for (int i = 0; i < k_body; i++)
		p.text.push_back(DIF_INSTR_LOAD(DIF_OP_LDX, 1, 2));
	p.text.push_back(DIF_INSTR_RET(2));
	run(st, p, k_body);
}
BENCHMARK(BM_load_env);

void BM_global_var(benchmark::State &st)
{
	vm_program p;
	dtrace_difv_t v{};
	v.dtdv_id = DIF_VAR_OTHER_UBASE;
	v.dtdv_kind = DIFV_KIND_SCALAR;
	v.dtdv_scope = DIFV_SCOPE_GLOBAL;
	v.dtdv_type.dtdt_size = 8;
	p.vars.push_back(v);
	for (int i = 0; i < k_body / 2; i++) {
		p.text.push_back(DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_OTHER_UBASE, 1));
		p.text.push_back(DIF_INSTR_STV(DIF_OP_STGS, DIF_VAR_OTHER_UBASE, 1));
	}
	p.text.push_back(DIF_INSTR_RET(1));
	run(st, p, k_body);
}
BENCHMARK(BM_global_var);

void BM_builtin_var(benchmark::State &st)
{
	vm_program p;
	for (int i = 0; i < k_body; i++)
		p.text.push_back(DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_PID, 1));
	p.text.push_back(DIF_INSTR_RET(1));
	run(st, p, k_body);
}
BENCHMARK(BM_builtin_var);

// Subroutine calls: strlen() of a 32-byte string-table string.
void BM_subr_strlen(benchmark::State &st)
{
	vm_program p;
	p.strs = std::string(32, 'x') + '\0';
	p.text.push_back(DIF_INSTR_SETS(0, 1));
	for (int i = 0; i < k_body / 4; i++) {
		p.text.push_back(DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 0, 1));
		p.text.push_back(DIF_INSTR_CALL(DIF_SUBR_STRLEN, 2));
		p.text.push_back(DIF_INSTR_FLUSHTS);
		p.text.push_back(DIF_INSTR_NOP);
	}
	p.text.push_back(DIF_INSTR_RET(2));
	run(st, p, k_body);
}
BENCHMARK(BM_subr_strlen);

} // namespace

BENCHMARK_MAIN();
