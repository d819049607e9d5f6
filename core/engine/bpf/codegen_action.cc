// SPDX-License-Identifier: MIT
//
// codegen_action.cc - a clause's predicate and actions, as fire.cc runs
// them:
//
//   predicate (action 0) ── false ─► next ECB
//   firing words no record covers zeroed (the user engine's firing starts
//   zeroed), then per action, in order (action indexes as fire.cc counts
//   them: one per key and per argument):
//     aggregating: {aggid, generation (dt_aggen)}, keys ─► m->key at
//       8 + aggregation::key_offsets; value and increment; bucket
//       (library); dt_agg_<id> entry looked up, created
//       with the initial value (min: INT64_MAX, max: INT64_MIN) if
//       missing, updated in place (per-CPU map: no atomics)
//     others: each argument's DIF ─► its record at 8 + offset in m->buf,
//       by value_type kind exactly as fire.cc write_value
//   dtrace_rechdr_t {epid, timestamp hi, lo}, dt_emit_firing(m, size)
//   (always, data-less firings too: illumos writes the EPID record);
//   exit() then takes effect (dt_exit).
#include "codegen.hpp"

#include <dtrace/options.hpp>
#include <dtrace/ustack_capture.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace dt::engines::bpf {

namespace {

bool fits(const record &r, uint32_t size)
{
	return r.size != 0 && static_cast<uint64_t>(r.offset) + r.size <= size;
}

} // namespace

void codegen::set_action(uint32_t idx)
{
	a.st_imm(BPF_DW, BPF_REG_7, DT_M(action), static_cast<int32_t>(idx));
}

bool codegen::clause_records(const clause &c) const
{
	for (const action &act : c.actions) {
		if (DTRACEACT_ISAGG(act.kind) || !act.records)
			continue;
		for (const record &r : act.args)
			if (fits(r, c.size))
				return true;
	}
	return false;
}

// Zero the 8-byte words of [base_off, base_off + size) that the covered
// ranges (relative offset, size) do not cover completely.
void codegen::zero_gaps(int base_reg, int32_t base_off, uint32_t size,
			const std::vector<std::pair<uint32_t, uint32_t>> &covered)
{
	std::vector<bool> cov(size, false);
	for (auto [off, n] : covered)
		for (uint32_t k = off; k < off + n && k < size; k++)
			cov[k] = true;
	// Words beyond the offset field's reach (a large aggregation key
	// ends above 32 KiB in m) go through a pointer in r1.
	if (static_cast<int64_t>(base_off) + size > INT16_MAX) {
		a.mov_reg(BPF_REG_1, base_reg);
		a.alu_imm(BPF_ADD, BPF_REG_1, base_off);
		base_reg = BPF_REG_1;
		base_off = 0;
	}
	for (uint32_t w = 0; w < size; w += 8) {
		bool full = true;
		for (uint32_t k = w; k < w + 8 && k < size; k++)
			full = full && cov[k];
		if (!full)
			a.st_imm(BPF_DW, base_reg,
				 static_cast<int16_t>(base_off + static_cast<int32_t>(w)), 0);
	}
}

// The value in r0 -> the record's bytes in m->buf.
void codegen::write_record(const record &r, const action &act)
{
	const int32_t off = 8 + static_cast<int32_t>(r.offset); // after dt_bpf_sample
	const int16_t at = static_cast<int16_t>(DT_M(buf) + off);
	switch (r.type.k) {
	case value_type::kind::string:
	case value_type::kind::bytes:
		a.mov_reg(BPF_REG_3, BPF_REG_0);
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_imm(BPF_REG_2, off);
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(r.size));
		lib_call(r.type.k == value_type::kind::string ? "dt_rec_str" : "dt_rec_bytes", -1);
		return;
	case value_type::kind::stack:
	case value_type::kind::ustack: {
		// dt_rec_ustack writes the pid at off and the pcs after it.
		bool user = r.type.k == value_type::kind::ustack;
		uint32_t room = (r.size - (user ? 8 : 0)) / 8;
		uint32_t nframes = act.nframes ? std::min(act.nframes, room) : room;
		// -x ustackbytes: registers and stack for the consumer to unwind.
		uint32_t ub = ustack_bytes(p_.options);
		bool regs = user && act.kind == DTRACEACT_USTACK && act.strsize == 0 && ub != 0 &&
			    r.size >= ustack_capture_size(ub);
		a.mov_reg(BPF_REG_1, BPF_REG_6);
		a.mov_reg(BPF_REG_2, BPF_REG_7);
		a.mov_imm(BPF_REG_3, off);
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(regs ? r.size : nframes));
		a.call_sym(regs ? "dt_rec_ustack_regs" : user ? "dt_rec_ustack" : "dt_rec_stack");
		return;
	}
	case value_type::kind::usym:
	case value_type::kind::umod:
	case value_type::kind::uaddr:
		a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
		a.call_helper(BPF_FUNC_get_current_pid_tgid);
		a.alu_imm(BPF_RSH, BPF_REG_0, 32);
		if (r.size >= 8)
			a.stx(BPF_DW, BPF_REG_7, at, BPF_REG_0);
		if (r.size >= 16) {
			a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, FP_T1);
			a.stx(BPF_DW, BPF_REG_7, static_cast<int16_t>(at + 8), BPF_REG_0);
		}
		return;
	default: break;
	}
	// Integers, pointers, sym/mod: min(size, 8) bytes, native order.
	switch (r.size) {
	case 1: a.stx(BPF_B, BPF_REG_7, at, BPF_REG_0); return;
	case 2: a.stx(BPF_H, BPF_REG_7, at, BPF_REG_0); return;
	case 4: a.stx(BPF_W, BPF_REG_7, at, BPF_REG_0); return;
	default: break;
	}
	if (r.size >= 8) {
		a.stx(BPF_DW, BPF_REG_7, at, BPF_REG_0);
		for (uint32_t k = 8; k < r.size; k += 8)
			a.st_imm(BPF_DW, BPF_REG_7,
				 static_cast<int16_t>(at + static_cast<int16_t>(k)), 0);
		return;
	}
	for (uint32_t k = 0; k < r.size; k++) {
		a.stx(BPF_B, BPF_REG_7, static_cast<int16_t>(at + static_cast<int16_t>(k)),
		      BPF_REG_0);
		a.alu_imm(BPF_RSH, BPF_REG_0, 8);
	}
}

// The value in r0 -> key j of the aggregation in m->key.
void codegen::write_key(const record &k, const aggregation &agg, size_t j)
{
	uint32_t off = (j < agg.key_offsets.size() ? agg.key_offsets[j] : 0) + 8;
	uint32_t size = k.size ? k.size : (j < agg.keys.size() ? agg.keys[j].size : 8);
	if (static_cast<uint64_t>(off) + size > l_.aggs[agg.id - 1].key_size)
		return; // fire.cc: a key that does not fit is skipped
	const value_type &t = j < agg.keys.size() ? agg.keys[j] : k.type;
	// The key's words: at an offset from m (r7), or beyond the offset
	// field's 32 KiB through a pointer to them in r1 (key_at()).
	const int32_t key_off = DT_M(key) + static_cast<int32_t>(off);
	const bool far = static_cast<int64_t>(key_off) + size > INT16_MAX;
	int key_reg = BPF_REG_7;
	int16_t at = static_cast<int16_t>(far ? 0 : key_off);
	auto key_at = [&] {
		if (!far)
			return;
		mem_off_ptr(BPF_REG_1, key_off);
		key_reg = BPF_REG_1;
	};
	switch (t.k) {
	case value_type::kind::string:
	case value_type::kind::bytes:
		a.mov_reg(BPF_REG_3, BPF_REG_0);
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_imm(BPF_REG_2, static_cast<int32_t>(off));
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(size));
		lib_call(t.k == value_type::kind::string ? "dt_key_str" : "dt_key_bytes", -1);
		return;
	case value_type::kind::stack:
	case value_type::kind::ustack: {
		// Recorded after the firing in m->buf, then copied into the key.
		bool user = t.k == value_type::kind::ustack;
		uint32_t tmp = 8 + ((cur_->size + 7) & ~7u);
		// dt_rec_ustack writes the pid at tmp itself, the pcs after it;
		// with -x ustackbytes, the registers and stack the consumer
		// unwinds (and rewrites to pcs before it compares keys).
		uint32_t ub = ustack_bytes(p_.options);
		bool regs = user && ub != 0 &&
			    size >= ustack_capture_size(std::min(ub, k_ustack_key_bytes));
		uint32_t nframes = (size - (user ? 8 : 0)) / 8, stage = size;
		// A default capture the buffer has no room to stage after the
		// clause's records: the frame pointer walk's pid and pcs in its
		// slot, zeros after them (the consumer tells the layouts apart
		// by word 1), as a key too large for a capture holds.
		if (regs && tmp + size > DT_BPF_BUF_SIZE && p_.options.count("ustackbytes") == 0) {
			regs = false;
			nframes = std::min({t.frames ? t.frames : nframes, nframes, 256u});
			stage = 8 + nframes * 8;
		}
		if (tmp + stage > DT_BPF_BUF_SIZE)
			refuse("a stack() key does not fit the bpf engine's buffer");
		a.mov_reg(BPF_REG_1, BPF_REG_6);
		a.mov_reg(BPF_REG_2, BPF_REG_7);
		a.mov_imm(BPF_REG_3, static_cast<int32_t>(tmp));
		a.mov_imm(BPF_REG_4, static_cast<int32_t>(regs ? size : nframes));
		a.call_sym(regs ? "dt_rec_ustack_regs" : user ? "dt_rec_ustack" : "dt_rec_stack");
		mem_off_ptr(BPF_REG_1, DT_M(key) + static_cast<int32_t>(off));
		mem_off_ptr(BPF_REG_3, DT_M(buf) + static_cast<int32_t>(tmp));
		copy_mem(BPF_REG_1, BPF_REG_3, stage);
		if (stage < size) {
			mem_off_ptr(BPF_REG_1, DT_M(key) + static_cast<int32_t>(off + stage));
			for (uint32_t w = 0; w + 8 <= size - stage; w += 8)
				a.st_imm(BPF_DW, BPF_REG_1, static_cast<int16_t>(w), 0);
		}
		return;
	}
	case value_type::kind::usym:
	case value_type::kind::umod:
	case value_type::kind::uaddr:
		a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
		a.call_helper(BPF_FUNC_get_current_pid_tgid);
		a.alu_imm(BPF_RSH, BPF_REG_0, 32);
		key_at();
		if (size >= 8)
			a.stx(BPF_DW, key_reg, at, BPF_REG_0);
		if (size >= 16) {
			a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, FP_T1);
			a.stx(BPF_DW, key_reg, static_cast<int16_t>(at + 8), BPF_REG_0);
		}
		return;
	default: break;
	}
	key_at();
	switch (size) {
	case 1: a.stx(BPF_B, key_reg, at, BPF_REG_0); return;
	case 2: a.stx(BPF_H, key_reg, at, BPF_REG_0); return;
	case 4: a.stx(BPF_W, key_reg, at, BPF_REG_0); return;
	default: break;
	}
	if (size >= 8) {
		a.stx(BPF_DW, key_reg, at, BPF_REG_0);
		return;
	}
	for (uint32_t b = 0; b < size; b++) {
		a.stx(BPF_B, key_reg, static_cast<int16_t>(at + static_cast<int16_t>(b)),
		      BPF_REG_0);
		a.alu_imm(BPF_RSH, BPF_REG_0, 8);
	}
}

void codegen::aggregate(const action &act, const aggregation &agg, const clause &c)
{
	(void)c;
	if (agg.id == 0 || agg.id > l_.aggs.size() || agg.id > fds_.aggs.size() || fds_.agg_gen < 0)
		throw translate_error("bpf engine: internal error: no map for @" + agg.name);
	const layout::agg_map &mp = l_.aggs[agg.id - 1];
	const int fd = fds_.aggs[agg.id - 1];
	const uint32_t nwords = mp.value_size / 8;

	// Keys: {aggid, generation} first (translate.hpp layout), the keys
	// after it.
	const uint32_t kbase = 8;
	std::vector<std::pair<uint32_t, uint32_t>> covered;
	covered.emplace_back(0, 8);
	for (size_t j = 0; j < act.keys.size() && j < agg.key_offsets.size(); j++) {
		const value_type &t = j < agg.keys.size() ? agg.keys[j] : act.keys[j].type;
		uint32_t size = act.keys[j].size ? act.keys[j].size : t.size;
		covered.emplace_back(kbase + agg.key_offsets[j], size);
	}
	zero_gaps(BPF_REG_7, DT_M(key), mp.key_size, covered);
	a.st_imm(BPF_W, BPF_REG_7, DT_M(key), static_cast<int32_t>(agg.id));
	uint32_t base = act_base_;
	for (size_t j = 0; j < act.keys.size(); j++) {
		set_action(base + static_cast<uint32_t>(j) + 1);
		gen_difo(act.keys[j].expr);
		write_key(act.keys[j], agg, j);
	}
	// Value and increment (fire.cc: val 0, incr 1 by default).
	a.st_imm(BPF_DW, BPF_REG_10, FP_T2, 0);
	a.st_imm(BPF_DW, BPF_REG_10, FP_T3, 1);
	for (size_t j = 0; j < act.args.size() && j < 2; j++) {
		set_action(base + static_cast<uint32_t>(act.keys.size() + j) + 1);
		gen_difo(act.args[j].expr);
		a.stx(BPF_DW, BPF_REG_10, j == 0 ? FP_T2 : FP_T3, BPF_REG_0);
	}
	auto param = [&](size_t i, int64_t dflt) {
		return i < agg.params.size() ? agg.params[i] : dflt;
	};
	auto imm = [&](int reg, int64_t v) {
		if (v >= INT32_MIN && v <= INT32_MAX)
			a.mov_imm(reg, static_cast<int32_t>(v));
		else
			a.ld_imm64(reg, static_cast<uint64_t>(v));
	};
	// The generation the runtime's snapshots go by (dt_aggen, read once
	// the keys are computed): an update lands in the generation it read,
	// which the snapshot that moves dt_aggen on waits for (aggs.hpp).
	int have_gen = a.label();
	lookup0(fds_.agg_gen, BPF_REG_0);
	a.mov_imm(BPF_REG_1, 0);
	a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, have_gen);
	a.ldx(BPF_W, BPF_REG_1, BPF_REG_0, 0);
	a.bind(have_gen);
	a.stx(BPF_W, BPF_REG_7, static_cast<int16_t>(DT_M(key) + 4), BPF_REG_1);
	bool bucketed = agg.func == DTRACEAGG_QUANTIZE || agg.func == DTRACEAGG_LQUANTIZE ||
			agg.func == DTRACEAGG_LLQUANTIZE;
	if (bucketed) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_10, FP_T2);
		if (agg.func == DTRACEAGG_QUANTIZE) {
			a.call_sym("dt_agg_qbin");
		} else if (agg.func == DTRACEAGG_LQUANTIZE) {
			int64_t step = param(2, 1);
			int64_t levels = step > 0 ? (param(1, 0) - param(0, 0)) / step : 0;
			imm(BPF_REG_2, param(0, 0));
			imm(BPF_REG_3, step);
			imm(BPF_REG_4, levels);
			a.call_sym("dt_agg_lqbin");
		} else {
			imm(BPF_REG_2, param(0, 10));
			imm(BPF_REG_3, param(1, 0));
			imm(BPF_REG_4, param(2, 0));
			imm(BPF_REG_5, param(3, 10));
			a.call_sym("dt_agg_llqbin");
		}
		a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
	}

	// The entry: look up, else create with the initial value.
	int have = a.label(), done = a.label();
	auto lookup = [&] {
		a.ld_map(BPF_REG_1, fd);
		mem_off_ptr(BPF_REG_2, DT_M(key));
		a.call_helper(BPF_FUNC_map_lookup_elem);
		a.jcc_imm(BPF_JNE, BPF_REG_0, 0, have);
	};
	lookup();
	// The initial value, built at the end of scratch (free at this point:
	// the keys are in m->key, the value and increment on the stack).
	const int32_t init =
		DT_M(scratch) + DT_BPF_SCRATCH_SIZE - static_cast<int32_t>(mp.value_size);
	mem_off_ptr(BPF_REG_1, init);
	a.mov_imm(BPF_REG_2, static_cast<int32_t>(mp.value_size));
	a.mov_imm(BPF_REG_3, 0); // reading NULL fails and zeroes the destination
	a.call_helper(BPF_FUNC_probe_read_kernel);
	// (min/max: the zeroed word means "no value yet", dt_bpf_abi.h.)
	a.ld_map(BPF_REG_1, fd);
	mem_off_ptr(BPF_REG_2, DT_M(key));
	mem_off_ptr(BPF_REG_3, init);
	a.mov_imm(BPF_REG_4, BPF_NOEXIST);
	a.call_helper(BPF_FUNC_map_update_elem);
	lookup();
	cpustate_add(static_cast<int32_t>(offsetof(struct dt_bpf_cpustate, agg_drops)));
	a.ja(done);

	a.bind(have); // r0: the value
	auto add_word = [&](int16_t w, int src) {
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_0, static_cast<int16_t>(8 * w));
		a.alu_reg(BPF_ADD, BPF_REG_1, src);
		a.stx(BPF_DW, BPF_REG_0, static_cast<int16_t>(8 * w), BPF_REG_1);
	};
	a.ldx(BPF_DW, BPF_REG_2, BPF_REG_10, FP_T2); // val
	a.mov_imm(BPF_REG_3, 1);
	switch (agg.func) {
	case DTRACEAGG_COUNT: add_word(0, BPF_REG_3); break;
	case DTRACEAGG_SUM: add_word(0, BPF_REG_2); break;
	case DTRACEAGG_MIN:
	case DTRACEAGG_MAX: {
		// Stored XOR-ed with the bias (dt_bpf_abi.h); 0: no value yet.
		int store = a.label();
		a.ld_imm64(BPF_REG_4,
			   agg.func == DTRACEAGG_MIN ? DT_BPF_AGG_MIN_BIAS : DT_BPF_AGG_MAX_BIAS);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_0, 0);
		a.jcc_imm(BPF_JEQ, BPF_REG_1, 0, store);
		a.alu_reg(BPF_XOR, BPF_REG_1, BPF_REG_4);
		a.jcc_reg(agg.func == DTRACEAGG_MIN ? BPF_JSLE : BPF_JSGE, BPF_REG_1, BPF_REG_2,
			  done);
		a.bind(store);
		a.alu_reg(BPF_XOR, BPF_REG_2, BPF_REG_4);
		a.stx(BPF_DW, BPF_REG_0, 0, BPF_REG_2);
		break;
	}
	case DTRACEAGG_AVG:
		if (nwords < 2)
			break;
		add_word(0, BPF_REG_3);
		add_word(1, BPF_REG_2);
		break;
	case DTRACEAGG_STDDEV: {
		if (nwords < 4)
			break;
		add_word(0, BPF_REG_3);
		add_word(1, BPF_REG_2);
		// [2],[3] += val * val as unsigned 128-bit (illumos
		// dtrace_aggregate_stddev): |val| = hi:lo (32-bit halves),
		// square = hi*hi << 64 + 2*lo*hi << 32 + lo*lo.
		int p = a.label(), c1 = a.label(), c2 = a.label(), c3 = a.label();
		a.jcc_imm(BPF_JSGE, BPF_REG_2, 0, p);
		a.neg(BPF_REG_2);
		a.bind(p);
		a.mov_reg(BPF_REG_3, BPF_REG_2);
		a.alu_imm(BPF_LSH, BPF_REG_3, 32);
		a.alu_imm(BPF_RSH, BPF_REG_3, 32); // lo
		a.mov_reg(BPF_REG_4, BPF_REG_2);
		a.alu_imm(BPF_RSH, BPF_REG_4, 32); // hi
		a.mov_reg(BPF_REG_5, BPF_REG_3);
		a.alu_reg(BPF_MUL, BPF_REG_5, BPF_REG_3); // low = lo*lo
		a.mov_reg(BPF_REG_1, BPF_REG_3);
		a.alu_reg(BPF_MUL, BPF_REG_1, BPF_REG_4); // cross = lo*hi
		a.alu_reg(BPF_MUL, BPF_REG_4, BPF_REG_4); // high = hi*hi
		a.mov_reg(BPF_REG_3, BPF_REG_1);
		a.alu_imm(BPF_LSH, BPF_REG_3, 32); // cross << 32
		a.alu_imm(BPF_RSH, BPF_REG_1, 32); // cross >> 32
		a.alu_reg(BPF_ADD, BPF_REG_5, BPF_REG_3);
		a.jcc_reg(BPF_JGE, BPF_REG_5, BPF_REG_3, c1);
		a.alu_imm(BPF_ADD, BPF_REG_4, 1);
		a.bind(c1);
		a.alu_reg(BPF_ADD, BPF_REG_5, BPF_REG_3);
		a.jcc_reg(BPF_JGE, BPF_REG_5, BPF_REG_3, c2);
		a.alu_imm(BPF_ADD, BPF_REG_4, 1);
		a.bind(c2);
		a.alu_reg(BPF_ADD, BPF_REG_4, BPF_REG_1);
		a.alu_reg(BPF_ADD, BPF_REG_4, BPF_REG_1);
		// accumulate: [2] += low (carry into [3]), [3] += high
		a.ldx(BPF_DW, BPF_REG_2, BPF_REG_0, 16);
		a.alu_reg(BPF_ADD, BPF_REG_2, BPF_REG_5);
		a.stx(BPF_DW, BPF_REG_0, 16, BPF_REG_2);
		a.ldx(BPF_DW, BPF_REG_3, BPF_REG_0, 24);
		a.alu_reg(BPF_ADD, BPF_REG_3, BPF_REG_4);
		a.jcc_reg(BPF_JGE, BPF_REG_2, BPF_REG_5, c3);
		a.alu_imm(BPF_ADD, BPF_REG_3, 1);
		a.bind(c3);
		a.stx(BPF_DW, BPF_REG_0, 24, BPF_REG_3);
		break;
	}
	case DTRACEAGG_QUANTIZE:
	case DTRACEAGG_LQUANTIZE:
	case DTRACEAGG_LLQUANTIZE:
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_10, FP_T1);
		a.jcc_imm(BPF_JGE, BPF_REG_1, static_cast<int32_t>(nwords), done);
		a.alu_imm(BPF_LSH, BPF_REG_1, 3);
		a.alu_reg(BPF_ADD, BPF_REG_0, BPF_REG_1);
		a.ldx(BPF_DW, BPF_REG_2, BPF_REG_0, 0);
		a.ldx(BPF_DW, BPF_REG_3, BPF_REG_10, FP_T3);
		a.alu_reg(BPF_ADD, BPF_REG_2, BPF_REG_3);
		a.stx(BPF_DW, BPF_REG_0, 0, BPF_REG_2);
		break;
	default:
		refuse("aggregating function " + std::to_string(agg.func) +
		       " is not supported by the bpf engine");
	}
	a.bind(done);
}

void codegen::clause_body(const clause &c, int next)
{
	cur_line_ = c.line;
	if (c.predicate && !skip_predicate_) { // else run early (codegen_frame.cc)
		set_action(0);
		gen_difo(*c.predicate);
		a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, next);
	}
	// A firing is emitted unless every action stores no data
	// (clause::records_firing(), illumos dtrace_ecb_resize()).
	const uint32_t fsize = std::max<uint32_t>(c.size, sizeof(dtrace_rechdr_t));
	{
		if (fsize + 8 > DT_BPF_BUF_SIZE)
			refuse("the clause records " + std::to_string(c.size) +
			       " bytes, more than the bpf engine's " +
			       std::to_string(DT_BPF_BUF_SIZE));
		std::vector<std::pair<uint32_t, uint32_t>> covered{{0, sizeof(dtrace_rechdr_t)}};
		for (const action &act : c.actions)
			if (!DTRACEACT_ISAGG(act.kind) && act.records)
				for (const record &r : act.args)
					if (fits(r, c.size) &&
					    r.type.k != value_type::kind::stack &&
					    r.type.k != value_type::kind::ustack)
						covered.emplace_back(r.offset, r.size);
		zero_gaps(BPF_REG_7, DT_M(buf) + 8, fsize, covered);
	}

	uint32_t idx = 0;
	bool exits = false;
	for (const action &act : c.actions) {
		cur_line_ = act.line ? act.line : c.line;
		act_base_ = idx;
		idx += static_cast<uint32_t>(act.keys.size() +
					     std::max<size_t>(act.args.size(), 1));
		if (DTRACEACT_ISAGG(act.kind)) {
			if (act.aggid == 0 || act.aggid > p_.aggregations.size())
				continue;
			aggregate(act, p_.aggregations[act.aggid - 1], c);
			continue;
		}
		switch (act.kind) {
		case DTRACEACT_STOP: refuse("stop() is not supported by the bpf engine");
		case DTRACEACT_BREAKPOINT:
			refuse("breakpoint() is not supported by the bpf engine");
		case DTRACEACT_PANIC: refuse("panic() is not supported by the bpf engine");
		case DTRACEACT_EXIT: exits = true; break;
		default: break;
		}
		for (size_t j = 0; j < act.args.size(); j++) {
			const record &r = act.args[j];
			set_action(act_base_ + static_cast<uint32_t>(act.keys.size() + j) + 1);
			gen_difo(r.expr);
			if (j == 0 && act.kind == DTRACEACT_RAISE) {
				// Sent now (illumos: when the firing commits; a
				// fault later in this clause still discards it).
				a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
				a.mov_reg(BPF_REG_1, BPF_REG_0);
				a.call_helper(BPF_FUNC_send_signal);
				a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, FP_T1);
			}
			if (j == 0 && act.kind == DTRACEACT_CHILL) {
				// Spins now, in probe context (dt_chill: ILLOP past
				// the CPU's chill budget); r0 is kept for the record.
				a.stx(BPF_DW, BPF_REG_10, FP_T1, BPF_REG_0);
				a.mov_reg(BPF_REG_2, BPF_REG_0);
				a.mov_reg(BPF_REG_1, BPF_REG_7);
				lib_call("dt_chill", -1);
				a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, FP_T1);
			}
			if (j == 0)
				(void)spec_action(act, c, next); // codegen_spec.cc
			if (act.records && fits(r, c.size))
				write_record(r, act);
		}
	}
	if (c.records_firing()) {
		const int16_t hdr = static_cast<int16_t>(DT_M(buf) + 8);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(epid));
		a.stx(BPF_W, BPF_REG_7, hdr, BPF_REG_1);
		a.ldx(BPF_DW, BPF_REG_1, BPF_REG_7, DT_M(timestamp));
		a.stx(BPF_W, BPF_REG_7, static_cast<int16_t>(hdr + 8), BPF_REG_1);
		a.alu_imm(BPF_RSH, BPF_REG_1, 32);
		a.stx(BPF_W, BPF_REG_7, static_cast<int16_t>(hdr + 4), BPF_REG_1);
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.mov_imm(BPF_REG_2, static_cast<int32_t>(fsize));
		// After speculate(): into the speculation (codegen_spec.cc).
		a.call_sym(spec_firing_ ? "dt_emit_spec" : "dt_emit_firing");
	}
	spec_ends(c);
	if (exits) {
		a.mov_reg(BPF_REG_1, BPF_REG_7);
		a.call_sym("dt_exit");
	}
}

} // namespace dt::engines::bpf
