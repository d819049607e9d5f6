// SPDX-License-Identifier: MIT
// The kmod engine's uprobes, placed in dtrace_pid.ko (see uprobes.hpp).
#include "uprobes.hpp"

#include <dtrace/engine.hpp>

#include <uapi/dtrace/uprobe.h>

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace dt::kmod {
namespace {

constexpr const char *k_device = "/dev/" DTRACE_UPROBE_DEVICE_NAME;

// Copy s into a name field; false if it does not fit.
template <size_t N>
bool put_name(char (&dst)[N], const std::string &s)
{
	if (s.size() >= N)
		return false;
	std::memcpy(dst, s.c_str(), s.size() + 1);
	return true;
}

// The kind of probe `a` describes; 0 for what dtrace_pid.ko cannot place.
uint32_t kind_of(const dt_bpf_attach_t &a)
{
	if (a.kind == DT_BPF_ATTACH_URETPROBE)
		return DTRACE_UPROBE_RETURN;
	if (a.kind != DT_BPF_ATTACH_UPROBE)
		return 0;
	switch (a.ctx) {
	case DT_BPF_CTX_REGS: return DTRACE_UPROBE_ENTRY;
	case DT_BPF_CTX_REGS_INSN: return DTRACE_UPROBE_INSN;
	case DT_BPF_CTX_USDT: return DTRACE_UPROBE_USDT;
	default: return 0;
	}
}

} // namespace

uprobes::~uprobes()
{
	if (fd_ >= 0)
		close(fd_);
}

int uprobes::place(const probe_desc &d, const dt_bpf_attach_t &a, std::string &why)
{
	std::string name = d.str();
	dtrace_uprobe_place_t pl{};
	pl.dtup_kind = kind_of(a);
	if (pl.dtup_kind == 0 || a.target == nullptr) {
		why = "the kmod engine cannot enable " + name + ": not a uprobe";
		return -ENOTSUP;
	}
	if (!put_name(pl.dtup_provider, d.provider) || !put_name(pl.dtup_mod, d.mod) ||
	    !put_name(pl.dtup_func, d.func) || !put_name(pl.dtup_name, d.name)) {
		// dtrace.ko's names are shorter than a C++ symbol may be:
		// such a probe does not exist there, as on illumos, rather
		// than failing a description that matched it among others.
		why = "the kmod engine has no probe " + name + ": a name is too long";
		return k_skipped;
	}
	pl.dtup_offset = a.offset;
	pl.dtup_ref_ctr_offset = a.ref_ctr_offset;
	pl.dtup_pid = a.pid > 0 ? a.pid : 0;
	if (pl.dtup_kind == DTRACE_UPROBE_USDT) {
		pl.dtup_nargs = std::min<uint32_t>(a.nusdt_args, DTRACE_UPROBE_MAXARGS);
		for (uint32_t i = 0; i < pl.dtup_nargs; i++) {
			// Operands 10 and 11 arrived with plugin ABI 1.9.
			if (i >= 10 && !DT_ABI_HAS(&a, usdt_args_hi)) {
				pl.dtup_nargs = i;
				break;
			}
			const dt_usdt_arg_t &u = i < 10 ? a.usdt_args[i] : a.usdt_args_hi[i - 10];
			dtrace_uprobe_arg_t &k = pl.dtup_args[i];
			k.dtua_kind = u.kind;
			k.dtua_size = u.size;
			k.dtua_reg = u.reg;
			k.dtua_index = u.index;
			k.dtua_scale = u.scale;
			k.dtua_value = u.value;
		}
	}

	if (fd_ < 0) {
		// devtmpfs creates the node as the module registers it: allow a
		// moment after the kmod engine loaded it.
		for (int i = 0; i < 100; i++) {
			fd_ = open(k_device, O_RDWR | O_CLOEXEC);
			if (fd_ >= 0 || errno != ENOENT)
				break;
			std::this_thread::sleep_for(std::chrono::milliseconds(20));
		}
		if (fd_ < 0) {
			int err = errno;
			why = std::string("cannot open ") + k_device + ": " + std::strerror(err);
			return -err;
		}
	}
	int obj = open(a.target, O_RDONLY | O_CLOEXEC);
	if (obj < 0) {
		int err = errno;
		why = "cannot enable " + name + ": " + a.target + ": " + std::strerror(err);
		return -err;
	}
	pl.dtup_fd = obj;
	int rc = ioctl(fd_, DTRACE_UPROBEIOC_PLACE, &pl);
	int err = rc < 0 ? errno : 0;
	close(obj);
	if (err == ESRCH) {
		why = "failed to grab pid " + std::to_string(pl.dtup_pid) + ": No such process";
		return -err;
	}
	if (err != 0) {
		why = "the kmod engine cannot enable " + name + ": " + std::strerror(err);
		return -err;
	}
	return 0;
}

int uprobes::place(provider_registry &reg, const probe &p, std::string &why)
{
	dt_bpf_attach_t a{};
	int rc = reg.bpf_attach(p, a, why);
	return rc < 0 ? rc : place(p.desc, a, why);
}

void place_for_listing(uprobes &u, provider_registry &reg, const std::vector<const probe *> &probes)
{
	for (const probe *p : probes) {
		if (!fires_from_uprobe(reg.fire(*p)))
			continue;
		std::string why;
		if (int rc = u.place(reg, *p, why); rc < 0)
			throw engine_error(!why.empty() ? why
							: "cannot list " + p->desc.str() + ": " +
								  std::strerror(-rc));
	}
}

} // namespace dt::kmod
