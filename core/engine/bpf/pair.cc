// SPDX-License-Identifier: MIT
// Intervals that one event begins and the probe's event ends (pair.hpp).
#include "pair.hpp"

#include "load.hpp"
#include "maps.hpp"

#include <bpf/bpf.h>

#include <cerrno>
#include <cstddef>

namespace dt::engines::bpf {

unique_fd create_pair_map()
{
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, "dt_pair", sizeof(pair_key), sizeof(pair_value),
				k_pair_entries, nullptr);
	if (fd < 0) {
		int err = errno;
		if (err == EPERM)
			throw privilege_error(k_privilege_message);
		throw engine_error("bpf engine: cannot create map dt_pair: " + errno_text(err));
	}
	return unique_fd(fd);
}

void emit_pair_key(asm_buf &a, int ctx_reg, int32_t arg, int16_t at)
{
	static_assert(offsetof(pair_key, thread) == 0 && offsetof(pair_key, key) == 8);
	int have = a.label();
	a.call_helper(BPF_FUNC_get_current_pid_tgid);
	a.alu_imm(BPF_LSH, BPF_REG_0, 32);
	a.alu_imm(BPF_RSH, BPF_REG_0, 32);
	a.jcc_imm(BPF_JNE, BPF_REG_0, 0, have);
	a.call_helper(BPF_FUNC_get_smp_processor_id);
	a.ld_imm64(BPF_REG_1, uint64_t{1} << 32);
	a.alu_reg(BPF_OR, BPF_REG_0, BPF_REG_1);
	a.bind(have);
	a.stx(BPF_DW, BPF_REG_10, at, BPF_REG_0);
	a.ldx(BPF_DW, BPF_REG_1, ctx_reg, static_cast<int16_t>(8 * arg));
	a.stx(BPF_DW, BPF_REG_10, static_cast<int16_t>(at + 8), BPF_REG_1);
}

attach_point pair_begin_point(const attach_point &p)
{
	attach_point b;
	b.kind = DT_BPF_ATTACH_RAW_TRACEPOINT;
	b.target = p.begin_target;
	b.nargs = p.begin_nargs;
	return b;
}

unique_fd load_pair_begin(const attach_point &p, int map_fd, const std::string &what)
{
	// The stack: the key at -16, the value below it.
	constexpr int16_t k_key = -16;
	constexpr auto k_value = static_cast<int16_t>(k_key - sizeof(pair_value));
	asm_buf a;
	a.mov_reg(BPF_REG_6, BPF_REG_1);
	emit_pair_key(a, BPF_REG_6, p.begin_key, k_key);
	a.call_helper(BPF_FUNC_ktime_get_ns);
	a.stx(BPF_DW, BPF_REG_10, k_value, BPF_REG_0);
	for (uint32_t i = 0; i < DT_BPF_PAIR_NARGS; i++) {
		auto at = static_cast<int16_t>(k_value + offsetof(pair_value, raw) + 8 * i);
		if (i < p.begin_nargs) {
			a.ldx(BPF_DW, BPF_REG_1, BPF_REG_6, static_cast<int16_t>(8 * i));
			a.stx(BPF_DW, BPF_REG_10, at, BPF_REG_1);
		} else {
			a.st_imm(BPF_DW, BPF_REG_10, at, 0);
		}
	}
	a.ld_map(BPF_REG_1, map_fd);
	a.mov_reg(BPF_REG_2, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_2, k_key);
	a.mov_reg(BPF_REG_3, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_3, k_value);
	a.mov_imm(BPF_REG_4, BPF_ANY);
	a.call_helper(BPF_FUNC_map_update_elem);
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
	a.finish();

	int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dt_pair_begin", k_license,
			       a.code.data(), a.code.size(), nullptr);
	if (fd < 0) {
		int err = errno;
		if (err == EPERM)
			throw privilege_error(k_privilege_message);
		throw engine_error("cannot enable " + what + ": its program at " + p.begin_target +
				   " was refused: " + errno_text(err));
	}
	return unique_fd(fd);
}

} // namespace dt::engines::bpf
