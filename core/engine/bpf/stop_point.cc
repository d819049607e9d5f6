// SPDX-License-Identifier: MIT
// A uprobe that stops the thread reaching it (see stop_point.hpp).
#include "stop_point.hpp"

#include "attach.hpp"
#include "insn.hpp"
#include "load.hpp"
#include "maps.hpp"

#include <bpf/bpf.h>

#include <signal.h>

#include <cerrno>

namespace dt::engines::bpf {
namespace {

// bpf_send_signal_thread() (Linux 5.5); the uapi headers may be older.
constexpr int32_t k_send_signal_thread = 117;

} // namespace

stop_point::stop_point(int32_t pid, const std::string &path, uint64_t offset)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo);
	int m = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_stops", 4, 8, 1, &mo);
	if (m < 0)
		throw errno == EPERM ? privilege_error(k_privilege_message)
				     : engine_error("bpf engine: cannot create a map for the stop "
						    "point: " +
						    errno_text(errno));
	map_.reset(m);
	asm_buf a;
	int skip = a.label();
	a.st_imm(BPF_W, BPF_REG_10, -4, 0);
	a.mov_reg(BPF_REG_2, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_2, -4);
	a.ld_map(BPF_REG_1, map_.get());
	a.call_helper(BPF_FUNC_map_lookup_elem);
	a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, skip);
	a.mov_imm(BPF_REG_1, 1);
	a.emit(mk(BPF_STX | BPF_DW | BPF_ATOMIC, BPF_REG_0, BPF_REG_1, 0, BPF_ADD));
	a.bind(skip);
	a.mov_imm(BPF_REG_1, SIGSTOP);
	a.call_helper(k_send_signal_thread);
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
	a.finish();
	LIBBPF_OPTS(bpf_prog_load_opts, po);
	int p = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dt_stop", k_license, a.code.data(),
			      a.code.size(), &po);
	if (p < 0)
		throw errno == EPERM ? privilege_error(k_privilege_message)
				     : engine_error("bpf engine: cannot load the stop point's "
						    "program: " +
						    errno_text(errno));
	prog_.reset(p);
	attach_point at;
	at.kind = DT_BPF_ATTACH_UPROBE;
	at.target = path;
	at.offset = offset;
	at.pid = pid;
	at.ctx = DT_BPF_CTX_REGS;
	links_ = attach(at, prog_.get(), "the stop point in " + path);
}

uint64_t stop_point::count() const
{
	uint32_t zero = 0;
	uint64_t n = 0;
	if (bpf_map_lookup_elem(map_.get(), &zero, &n) != 0)
		return 0;
	return n;
}

} // namespace dt::engines::bpf
