// SPDX-License-Identifier: MIT
// A program that stops each process at the end of exec() (see
// exec_stop.hpp).
#include "exec_stop.hpp"

#include "insn.hpp"
#include "load.hpp"
#include "maps.hpp"
#include "util/kernel_btf.hpp"

#include <bpf/bpf.h>

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string>

namespace dt::engines::bpf {
namespace {

// Helpers the uapi headers may not name (Linux 5.5).
constexpr int32_t k_send_signal_thread = 117;
constexpr int32_t k_probe_read_kernel = 113;

// Processes stopped and not yet taken, and files known to hold nothing.
constexpr uint32_t k_pending_max = 1024;
constexpr uint32_t k_skip_max = 4096;

// Where the exec()ed file's key lies: linux_binprm.file, file.f_inode,
// inode.{i_ino, i_size, i_sb, mtime}, super_block.s_dev. All 0 when the
// kernel has no BTF (or lacks one of them): the key is then zero.
struct offsets {
	uint32_t bprm_file = 0, f_inode = 0, i_ino = 0, i_size = 0, i_sb = 0, i_mtime = 0,
		 s_dev = 0;
	bool ok = false;
	// task_struct.{signal, real_parent, tgid}, signal_struct.tty: whether
	// the process has a controlling terminal and who started it.
	uint32_t t_signal = 0, t_parent = 0, t_tgid = 0, sig_tty = 0;
	bool tty_ok = false;
};

offsets kernel_offsets()
{
	offsets o;
	const kernel_btf *b = kernel_btf::open(kernel_btf::k_vmlinux);
	if (b == nullptr)
		return o;
	o.bprm_file = btf_member_offset(*b, "linux_binprm", "file");
	o.f_inode = btf_member_offset(*b, "file", "f_inode");
	o.i_ino = btf_member_offset(*b, "inode", "i_ino");
	o.i_size = btf_member_offset(*b, "inode", "i_size");
	o.i_sb = btf_member_offset(*b, "inode", "i_sb");
	o.s_dev = btf_member_offset(*b, "super_block", "s_dev");
	// The modification time's seconds: a member of its own since 6.7,
	// the first member of a timespec64 before.
	for (const char *n : {"i_mtime_sec", "__i_mtime", "i_mtime"})
		if ((o.i_mtime = btf_member_offset(*b, "inode", n)) != 0)
			break;
	// f_inode, i_ino, i_sb and s_dev are never a struct's first member.
	o.ok = o.f_inode != 0 && o.i_ino != 0 && o.i_size != 0 && o.i_sb != 0 && o.s_dev != 0;
	o.t_signal = btf_member_offset(*b, "task_struct", "signal");
	o.t_parent = btf_member_offset(*b, "task_struct", "real_parent");
	o.t_tgid = btf_member_offset(*b, "task_struct", "tgid");
	o.sig_tty = btf_member_offset(*b, "signal_struct", "tty");
	o.tty_ok = o.t_signal != 0 && o.t_parent != 0 && o.t_tgid != 0 && o.sig_tty != 0;
	return o;
}

unique_fd make_hash(const char *name, uint32_t key, uint32_t value, uint32_t entries)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo);
	int m = bpf_map_create(BPF_MAP_TYPE_HASH, name, key, value, entries, &mo);
	if (m < 0)
		throw errno == EPERM ? privilege_error(k_privilege_message)
				     : engine_error(std::string("bpf engine: cannot create map ") +
						    name + ": " + errno_text(errno));
	return unique_fd(m);
}

// Stack layout (below r10): the key, the pointer being followed, the tgid,
// the parent's tgid.
constexpr int16_t k_key = -32; // sizeof(exec_stop::file_key)
constexpr int16_t k_ptr = -40;
constexpr int16_t k_tgid = -48;
constexpr int16_t k_ptgid = -56;

// The stack slot of a member of the key.
constexpr int16_t key_at(size_t member)
{
	return static_cast<int16_t>(k_key + static_cast<int16_t>(member));
}

// bpf_probe_read_kernel(r10 + dst, size, *(r10 + k_ptr) + off); the value
// stays 0 when the read fails.
void read_at(asm_buf &a, int16_t dst, int32_t size, uint32_t off)
{
	a.ldx(BPF_DW, BPF_REG_3, BPF_REG_10, k_ptr);
	a.alu_imm(BPF_ADD, BPF_REG_3, static_cast<int32_t>(off));
	a.mov_reg(BPF_REG_1, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_1, dst);
	a.mov_imm(BPF_REG_2, size);
	a.call_helper(k_probe_read_kernel);
}

std::vector<bpf_insn> program(const offsets &o, int pending_fd, int skip_fd, pid_t self)
{
	static_assert(sizeof(exec_stop::file_key) == 32);
	asm_buf a;
	int out = a.label();
	for (int16_t off = k_ptgid; off < 0; off += 8)
		a.st_imm(BPF_DW, BPF_REG_10, off, 0);
	// ctx: u64 args[3] = {task, old_pid, bprm}
	a.ldx(BPF_DW, BPF_REG_7, BPF_REG_1, 0); // the task (r6-r9 survive calls)
	if (o.ok) {
		a.ldx(BPF_DW, BPF_REG_6, BPF_REG_1, 16);
		a.stx(BPF_DW, BPF_REG_10, k_ptr, BPF_REG_6);
		read_at(a, k_ptr, 8, o.bprm_file); // file
		read_at(a, k_ptr, 8, o.f_inode);   // inode
		read_at(a, key_at(offsetof(exec_stop::file_key, ino)), 8, o.i_ino);
		read_at(a, key_at(offsetof(exec_stop::file_key, size)), 8, o.i_size);
		if (o.i_mtime != 0)
			read_at(a, key_at(offsetof(exec_stop::file_key, mtime)), 8, o.i_mtime);
		read_at(a, k_ptr, 8, o.i_sb); // super_block
		read_at(a, key_at(offsetof(exec_stop::file_key, dev)), 4, o.s_dev);
		a.ld_map(BPF_REG_1, skip_fd);
		a.mov_reg(BPF_REG_2, BPF_REG_10);
		a.alu_imm(BPF_ADD, BPF_REG_2, k_key);
		a.call_helper(BPF_FUNC_map_lookup_elem);
		a.jcc_imm(BPF_JNE, BPF_REG_0, 0, out);
	}
	// held (r8): stop it, unless it has a controlling terminal and dtrace
	// did not start it (exec_stop.hpp).
	a.mov_imm(BPF_REG_8, 1);
	if (o.tty_ok) {
		int hold = a.label();
		a.stx(BPF_DW, BPF_REG_10, k_ptr, BPF_REG_7);
		read_at(a, k_ptr, 8, o.t_signal); // signal_struct
		read_at(a, k_ptr, 8, o.sig_tty);  // tty_struct
		a.ldx(BPF_DW, BPF_REG_0, BPF_REG_10, k_ptr);
		a.jcc_imm(BPF_JEQ, BPF_REG_0, 0, hold);
		a.stx(BPF_DW, BPF_REG_10, k_ptr, BPF_REG_7);
		read_at(a, k_ptr, 8, o.t_parent); // the parent task
		read_at(a, k_ptgid, 4, o.t_tgid);
		a.ldx(BPF_W, BPF_REG_0, BPF_REG_10, k_ptgid);
		a.jcc_imm(BPF_JEQ, BPF_REG_0, static_cast<int32_t>(self), hold);
		a.mov_imm(BPF_REG_8, 0);
		a.bind(hold);
	}
	a.stx(BPF_W, BPF_REG_10, key_at(offsetof(exec_stop::file_key, held)), BPF_REG_8);
	a.call_helper(BPF_FUNC_get_current_pid_tgid);
	a.alu_imm(BPF_RSH, BPF_REG_0, 32);
	a.stx(BPF_W, BPF_REG_10, k_tgid, BPF_REG_0);
	a.ld_map(BPF_REG_1, pending_fd);
	a.mov_reg(BPF_REG_2, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_2, k_tgid);
	a.mov_reg(BPF_REG_3, BPF_REG_10);
	a.alu_imm(BPF_ADD, BPF_REG_3, k_key);
	a.mov_imm(BPF_REG_4, BPF_ANY);
	a.call_helper(BPF_FUNC_map_update_elem);
	a.jcc_imm(BPF_JNE, BPF_REG_0, 0, out); // full: let it run
	a.jcc_imm(BPF_JEQ, BPF_REG_8, 0, out);
	a.mov_imm(BPF_REG_1, SIGSTOP);
	a.call_helper(k_send_signal_thread);
	a.bind(out);
	a.mov_imm(BPF_REG_0, 0);
	a.exit_();
	a.finish();
	return a.code;
}

} // namespace

exec_stop::exec_stop()
{
	pending_ = make_hash("dt_exec_pending", 4, sizeof(file_key), k_pending_max);
	skip_ = make_hash("dt_exec_skip", sizeof(file_key), 1, k_skip_max);
	std::vector<bpf_insn> code =
		program(kernel_offsets(), pending_.get(), skip_.get(), getpid());
	LIBBPF_OPTS(bpf_prog_load_opts, po);
	int p = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dt_exec_stop", k_license, code.data(),
			      code.size(), &po);
	if (p < 0)
		throw errno == EPERM ? privilege_error(k_privilege_message)
				     : engine_error("bpf engine: cannot load the exec watch's "
						    "program: " +
						    errno_text(errno));
	prog_.reset(p);
	int l = bpf_raw_tracepoint_open("sched_process_exec", prog_.get());
	if (l < 0)
		throw engine_error("bpf engine: cannot attach the exec watch to "
				   "sched_process_exec: " +
				   errno_text(errno));
	link_.reset(l);
}

bool exec_stop::pending() const
{
	uint32_t k = 0;
	return bpf_map_get_next_key(pending_.get(), nullptr, &k) == 0;
}

std::vector<exec_stop::stopped> exec_stop::take()
{
	std::vector<uint32_t> pids;
	uint32_t k = 0;
	for (void *prev = nullptr; bpf_map_get_next_key(pending_.get(), prev, &k) == 0; prev = &k)
		pids.push_back(k);
	std::vector<stopped> out;
	for (uint32_t pid : pids) {
		file_key f;
		if (bpf_map_lookup_and_delete_elem(pending_.get(), &pid, &f) == 0)
			out.push_back({static_cast<pid_t>(pid), f});
	}
	return out;
}

void exec_stop::skip(const file_key &f)
{
	if (f.ino == 0)
		return; // no key: every exec() looks the same
	file_key k = f;
	k.held = 0; // as the program looks it up
	const uint8_t one = 1;
	(void)bpf_map_update_elem(skip_.get(), &k, &one, BPF_ANY); // full: it stops again
}

} // namespace dt::engines::bpf
