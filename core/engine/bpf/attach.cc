// SPDX-License-Identifier: MIT
// Attach points and attaching (see attach.hpp).
#include "attach.hpp"

#include "util/assert.hpp"

#include <dtrace/engine.hpp>

#include <bpf/bpf.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace dt::engines::bpf {
namespace {

int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return static_cast<int>(
		syscall(__NR_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

std::string kind_name(int32_t kind)
{
	switch (kind) {
	case DT_BPF_ATTACH_TRACEPOINT: return "tracepoint";
	case DT_BPF_ATTACH_RAW_TRACEPOINT: return "raw tracepoint";
	case DT_BPF_ATTACH_KPROBE: return "kprobe";
	case DT_BPF_ATTACH_KRETPROBE: return "kretprobe";
	case DT_BPF_ATTACH_FENTRY: return "fentry";
	case DT_BPF_ATTACH_FEXIT: return "fexit";
	case DT_BPF_ATTACH_UPROBE: return "uprobe";
	case DT_BPF_ATTACH_URETPROBE: return "uretprobe";
	case DT_BPF_ATTACH_PERF_EVENT: return "perf event";
	case DT_BPF_ATTACH_CONSUMER: return "consumer";
	default: return "attach kind " + std::to_string(kind);
	}
}

// The tracefs ID of "group:event", or 0 (the plugin normally says it).
uint64_t tracepoint_id(const std::string &target)
{
	std::string path = target;
	path[path.find(':')] = '/';
	for (const char *root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
		uint64_t id = 0;
		std::ifstream(std::string(root) + "/events/" + path + "/id") >> id;
		if (id != 0)
			return id;
	}
	return 0;
}

} // namespace

std::string attach_point::describe() const
{
	std::string s = kind_name(kind);
	if (kind == DT_BPF_ATTACH_PERF_EVENT) {
		s += " every " + std::to_string(period_ns) + " ns";
		s += cpu < 0 ? " on every CPU" : " on CPU " + std::to_string(cpu);
	} else if (!multi_offsets.empty()) {
		s = (kind == DT_BPF_ATTACH_URETPROBE ? "uretprobe_multi on " : "uprobe_multi on ") +
		    std::to_string(multi_offsets.size()) +
		    (multi_offsets.size() == 1 ? " offset in " : " offsets in ") + target;
	} else if (!multi.empty()) {
		s = (kind == DT_BPF_ATTACH_KRETPROBE ? "kretprobe_multi on " : "kprobe_multi on ") +
		    std::to_string(multi.size()) + (multi.size() == 1 ? " function" : " functions");
	} else if (!target.empty()) {
		s += " " + target;
	}
	return s;
}

attach_point attach_point_of(const dt_bpf_attach_t &a)
{
	attach_point p;
	p.kind = a.kind;
	p.target = a.target != nullptr ? a.target : "";
	p.offset = a.offset;
	p.pid = a.pid;
	p.cpu = a.cpu;
	p.period_ns = a.period_ns;
	p.ctx = a.kind == DT_BPF_ATTACH_PERF_EVENT ? DT_BPF_CTX_PERF : DT_BPF_CTX_RAW;
	if (DT_ABI_HAS(&a, ctx) && (a.ctx != DT_BPF_CTX_RAW || a.kind != DT_BPF_ATTACH_PERF_EVENT))
		p.ctx = a.ctx;
	if (DT_ABI_HAS(&a, nargs))
		p.nargs = a.nargs;
	if (DT_ABI_HAS(&a, has_argmap) && a.has_argmap != 0)
		for (size_t i = 0; i < p.argmap.size(); i++)
			p.argmap[i] = a.argmap[i];
	if (DT_ABI_HAS(&a, argfmt) && p.ctx == DT_BPF_CTX_TP_RECORD)
		for (size_t i = 0; i < p.argfmt.size(); i++)
			p.argfmt[i] = a.argfmt[i];
	if (a.has_filter != 0 && DT_ABI_HAS(&a, filter_mask) && a.has_filter_arg != 0) {
		p.filter_arg = a.filter_arg;
		p.filter_shift = a.filter_shift;
		p.filter_mask = a.filter_mask;
	}
	if (DT_ABI_HAS(&a, ref_ctr_offset)) {
		for (uint32_t i = 0; i < a.nusdt_args && i < p.usdt.size(); i++) {
			if (i >= 10 && !DT_ABI_HAS(&a, usdt_args_hi))
				break;
			const dt_usdt_arg_t &u = i < 10 ? a.usdt_args[i] : a.usdt_args_hi[i - 10];
			p.usdt[i] = {u.kind, u.size, u.reg, u.value, u.index, u.scale};
		}
		if (a.kind == DT_BPF_ATTACH_UPROBE)
			p.ref_ctr_offset = a.ref_ctr_offset;
	}
	if (a.has_filter != 0 && DT_ABI_HAS(&a, filter_steps) && a.filter_nsteps > 0) {
		p.filter_arg = -1;
		for (uint32_t i = 0; i < a.filter_nsteps && i < DT_BPF_FILTER_STEPS; i++)
			p.filter_steps.push_back(
				{a.filter_steps[i].op, a.filter_steps[i].a, a.filter_steps[i].imm});
		if (a.filter_nsteps > DT_BPF_FILTER_STEPS)
			p.filter_steps.push_back({0, 0, 0}); // refused by unsupported()
	}
	if (DT_ABI_HAS(&a, end_key) && a.begin_kind != DT_BPF_ATTACH_NONE) {
		// Only raw tracepoints begin an interval (unsupported()).
		p.begin_target =
			a.begin_kind == DT_BPF_ATTACH_RAW_TRACEPOINT && a.begin_target != nullptr
				? a.begin_target
				: "?";
		p.begin_nargs = a.begin_nargs;
		p.begin_key = a.begin_key;
		p.end_key = a.end_key;
	}
	if (DT_ABI_HAS(&a, arg_steps) && a.arg_nsteps > 0) {
		p.arg_steps_index = a.arg_from_steps;
		for (uint32_t i = 0; i < a.arg_nsteps && i < DT_BPF_FILTER_STEPS; i++)
			p.arg_steps.push_back(
				{a.arg_steps[i].op, a.arg_steps[i].a, a.arg_steps[i].imm});
		if (a.arg_nsteps > DT_BPF_FILTER_STEPS)
			p.arg_steps.push_back({0, 0, 0}); // refused by unsupported()
	}
	return p;
}

std::string filter_steps_problem(const std::vector<std::array<int64_t, 3>> &steps, uint32_t nargs)
{
	// Each step's stack depth, the same on every path to it.
	std::vector<int> depth(steps.size() + 1, -1);
	depth[0] = 0;
	auto reach = [&](size_t to, int d) {
		if (depth[to] >= 0 && depth[to] != d)
			return false;
		depth[to] = d;
		return true;
	};
	for (size_t i = 0; i < steps.size(); i++) {
		const auto &[op, a, imm] = steps[i];
		const std::string at = "step " + std::to_string(i) + " of the provider's filter ";
		int d = depth[i];
		if (d < 0)
			continue; // unreachable
		int next = d;
		switch (op) {
		case DT_BPF_FOP_ARG:
			if (a < 0 || static_cast<uint32_t>(a) >= nargs)
				return at + "reads raw argument " + std::to_string(a) +
				       ", which the tracepoint does not pass";
			break;
		case DT_BPF_FOP_LOAD:
			if ((a != 1 && a != 2 && a != 4 && a != 8) || imm < INT32_MIN ||
			    imm > INT32_MAX)
				return at + "is a load the bpf engine cannot make";
			break;
		case DT_BPF_FOP_PUSH:
			if (++next > DT_BPF_FILTER_STACK)
				return at + "overflows its stack";
			break;
		case DT_BPF_FOP_PEEK:
		case DT_BPF_FOP_ADD:
		case DT_BPF_FOP_OR:
			if (d == 0)
				return at + "reads an empty stack";
			if (op != DT_BPF_FOP_PEEK)
				next--;
			break;
		case DT_BPF_FOP_RSH:
		case DT_BPF_FOP_LSH:
			if (imm < 0 || imm > 63)
				return at + "shifts by " + std::to_string(imm);
			break;
		case DT_BPF_FOP_JEQ:
		case DT_BPF_FOP_JNE:
			if (a < 0 || i + 1 + static_cast<size_t>(a) > steps.size() ||
			    !reach(i + 1 + static_cast<size_t>(a), d))
				return at + "jumps where the bpf engine cannot follow";
			break;
		case DT_BPF_FOP_CONST:
		case DT_BPF_FOP_AND:
		case DT_BPF_FOP_DROP: break;
		default: return at + "has an unknown operation " + std::to_string(op);
		}
		if (op != DT_BPF_FOP_DROP && !reach(i + 1, next))
			return at + "leaves its stack at a depth that depends on the path";
	}
	return "";
}

attach_point own_point_of(const dt_bpf_attach_t &a)
{
	attach_point p;
	if (!DT_ABI_HAS(&a, own_argmap) || a.own_kind == DT_BPF_ATTACH_NONE ||
	    a.own_target == nullptr)
		return p;
	p.kind = a.own_kind;
	p.target = a.own_target;
	p.offset = a.own_offset;
	p.ctx = a.own_ctx;
	p.nargs = a.own_nargs;
	for (size_t i = 0; i < p.argmap.size(); i++)
		p.argmap[i] = a.own_argmap[i];
	return p;
}

void limit_record_args(attach_point &p, size_t nargs)
{
	if (p.ctx != DT_BPF_CTX_TP_RECORD)
		return;
	uint32_t end = 8;
	for (size_t i = 0; i < p.argmap.size(); i++) {
		if (i >= nargs)
			p.argmap[i] = -1;
		else if (p.argmap[i] >= 0)
			end = std::max(end, static_cast<uint32_t>(p.argmap[i]) +
						    record_bytes_read(p.argfmt[i]));
	}
	p.nargs = std::min(p.nargs, end);
}

bool use_own_points(const std::vector<uint32_t> &filters, bool all_have_own)
{
	if (!all_have_own || filters.empty())
		return false;
	std::vector<uint32_t> v = filters;
	std::sort(v.begin(), v.end());
	return static_cast<size_t>(std::unique(v.begin(), v.end()) - v.begin()) <= k_own_points_max;
}

std::string unsupported(const attach_point &p)
{
	if (!p.begin_target.empty() && p.kind != DT_BPF_ATTACH_RAW_TRACEPOINT)
		return "an interval that ends at a " + kind_name(p.kind) +
		       " is not supported by the bpf engine";
	if (!p.arg_steps.empty()) {
		if (p.kind != DT_BPF_ATTACH_RAW_TRACEPOINT || p.ctx != DT_BPF_CTX_RAW ||
		    p.arg_steps_index < 0 || p.arg_steps_index >= 10)
			return "an argument computed by the provider needs raw tracepoint "
			       "arguments";
		if (std::string no = filter_steps_problem(p.arg_steps, p.raw_count()); !no.empty())
			return "the argument's program: " + no;
	}
	switch (p.kind) {
	case DT_BPF_ATTACH_RAW_TRACEPOINT:
		if (p.ctx == DT_BPF_CTX_PERF)
			break;
		if (p.ctx != DT_BPF_CTX_RAW && p.ctx != DT_BPF_CTX_SYS_ENTER &&
		    p.ctx != DT_BPF_CTX_SYS_EXIT)
			return "argument context " + std::to_string(p.ctx) +
			       " on a raw tracepoint is not supported by the bpf engine";
		if (!p.begin_target.empty()) {
			if (p.begin_target == "?" || p.ctx != DT_BPF_CTX_RAW)
				return "an interval that a " +
				       kind_name(DT_BPF_ATTACH_RAW_TRACEPOINT) +
				       " with raw arguments does not begin is not supported by "
				       "the bpf engine";
			if (p.raw_count() > DT_BPF_PAIR_NARGS || p.begin_key < 0 ||
			    static_cast<uint32_t>(p.begin_key) >= p.begin_nargs || p.end_key < 0 ||
			    static_cast<uint32_t>(p.end_key) >= p.nargs)
				return "the provider's interval from " + p.begin_target + " to " +
				       p.target + " is not one the bpf engine can join";
		}
		if (p.filter_arg >= 0 &&
		    (p.ctx != DT_BPF_CTX_RAW ||
		     static_cast<uint32_t>(p.filter_arg) >= p.raw_count() || p.filter_shift > 63))
			return "the provider's filter (raw argument " +
			       std::to_string(p.filter_arg) +
			       ") is not one the bpf engine can compute";
		if (!p.filter_steps.empty()) {
			if (p.ctx != DT_BPF_CTX_RAW)
				return "a filter program needs raw tracepoint arguments";
			if (std::string no = filter_steps_problem(p.filter_steps, p.raw_count());
			    !no.empty())
				return no;
		}
		return p.target.empty() ? "the provider named no raw tracepoint" : "";
	case DT_BPF_ATTACH_PERF_EVENT:
		if (p.period_ns == 0)
			return "the provider named no period for its perf event";
		return p.ctx == DT_BPF_CTX_PERF ? "" : "perf events give no raw arguments";
	case DT_BPF_ATTACH_CONSUMER: return "";
	case DT_BPF_ATTACH_TRACEPOINT:
		if (p.ctx != DT_BPF_CTX_TP_RECORD)
			return "argument context " + std::to_string(p.ctx) +
			       " on a tracepoint is not supported by the bpf engine";
		if (p.target.find(':') == std::string::npos)
			return "the provider named no tracepoint (group:event)";
		for (size_t i = 0; i < p.argmap.size(); i++)
			if (p.argmap[i] >= 0 &&
			    !record_field_readable(p.argmap[i], p.argfmt[i], p.nargs))
				return "the provider's tracepoint argument at offset " +
				       std::to_string(p.argmap[i]) +
				       " is not one the bpf engine can read";
		return "";
	case DT_BPF_ATTACH_KPROBE:
	case DT_BPF_ATTACH_KRETPROBE:
		if (p.target.empty() && p.multi.empty())
			return "the provider named no function for its " + kind_name(p.kind);
		if (p.ctx != DT_BPF_CTX_REGS && p.ctx != DT_BPF_CTX_REGS_RETURN)
			return "argument context " + std::to_string(p.ctx) + " on a " +
			       kind_name(p.kind) + " is not supported by the bpf engine";
		return "";
	case DT_BPF_ATTACH_FENTRY:
	case DT_BPF_ATTACH_FEXIT:
		if (p.target.empty() || p.offset == 0 || p.offset > UINT32_MAX)
			return "the provider named no BTF function for its " + kind_name(p.kind);
		if (p.ctx != DT_BPF_CTX_RAW || p.filter_arg >= 0 || !p.filter_steps.empty())
			return "argument context " + std::to_string(p.ctx) + " on a " +
			       kind_name(p.kind) + " is not supported by the bpf engine";
		return "";
	case DT_BPF_ATTACH_UPROBE:
	case DT_BPF_ATTACH_URETPROBE:
		if (p.target.empty())
			return "the provider named no file for its " + kind_name(p.kind);
		if (p.ctx != DT_BPF_CTX_REGS && p.ctx != DT_BPF_CTX_REGS_RETURN &&
		    p.ctx != DT_BPF_CTX_REGS_INSN && p.ctx != DT_BPF_CTX_USDT)
			return "argument context " + std::to_string(p.ctx) + " on a " +
			       kind_name(p.kind) + " is not supported by the bpf engine";
		for (const usdt_loc &u : p.usdt) {
			int n = u.size < 0 ? -u.size : u.size;
			bool reg_ok = u.reg >= 0 && u.reg <= 160 && u.reg % 8 == 0;
			if (u.kind != DT_USDT_ARG_NONE && u.kind != DT_USDT_ARG_CONST &&
			    ((u.kind != DT_USDT_ARG_REG && u.kind != DT_USDT_ARG_MEM) || !reg_ok))
				return "a USDT argument location the bpf engine cannot read";
			if (u.kind != DT_USDT_ARG_NONE && n != 1 && n != 2 && n != 4 && n != 8)
				return "a USDT argument of " + std::to_string(n) + " bytes";
			if (u.kind == DT_USDT_ARG_MEM && u.scale != 0 &&
			    ((u.scale & (u.scale - 1)) != 0 || u.scale > 8 || u.index < 0 ||
			     u.index > 160 || u.index % 8 != 0))
				return "a USDT argument's index register the bpf engine cannot read";
		}
		return "";
	default: break;
	}
	return kind_name(p.kind) + " probes are not supported by the bpf engine yet";
}

enum bpf_prog_type prog_type_of(const attach_point &p)
{
	switch (p.kind) {
	case DT_BPF_ATTACH_PERF_EVENT: return BPF_PROG_TYPE_PERF_EVENT;
	case DT_BPF_ATTACH_KPROBE:
	case DT_BPF_ATTACH_KRETPROBE:
	case DT_BPF_ATTACH_UPROBE:
	case DT_BPF_ATTACH_URETPROBE: return BPF_PROG_TYPE_KPROBE;
	case DT_BPF_ATTACH_TRACEPOINT: return BPF_PROG_TYPE_TRACEPOINT;
	case DT_BPF_ATTACH_FENTRY:
	case DT_BPF_ATTACH_FEXIT: return BPF_PROG_TYPE_TRACING;
	default: return BPF_PROG_TYPE_RAW_TRACEPOINT;
	}
}

load_target load_target_of(const attach_point &p)
{
	if (p.kind == DT_BPF_ATTACH_FENTRY)
		return {BPF_TRACE_FENTRY, static_cast<uint32_t>(p.offset)};
	if (p.kind == DT_BPF_ATTACH_FEXIT)
		return {BPF_TRACE_FEXIT, static_cast<uint32_t>(p.offset)};
	if (!p.multi.empty())
		return {BPF_TRACE_KPROBE_MULTI, 0};
	if (!p.multi_offsets.empty())
		return {static_cast<enum bpf_attach_type>(k_trace_uprobe_multi), 0};
	return {};
}

size_t trampolines_max()
{
	const char *v = std::getenv("DTRACE_BPF_TRAMPOLINE_MAX");
	if (v == nullptr || *v == '\0')
		return k_trampolines_max;
	char *end = nullptr;
	unsigned long long n = std::strtoull(v, &end, 10);
	return end != nullptr && *end == '\0' ? static_cast<size_t>(n) : k_trampolines_max;
}

bool have_kprobe_pmu()
{
	return access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0;
}

namespace {

// Load "r0 = 0; exit" as a kprobe_multi program and link it to `func`;
// 0 or the errno of what failed.
int try_kprobe_multi(const char *func)
{
	struct bpf_insn insns[2] = {};
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[1].code = BPF_JMP | BPF_EXIT;
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	o.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
	int prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dt_kpm_check", "GPL", insns, 2, &o);
	if (prog < 0)
		return errno;
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	lo.kprobe_multi.syms = &func;
	lo.kprobe_multi.cnt = 1;
	int link = bpf_link_create(prog, 0, BPF_TRACE_KPROBE_MULTI, &lo);
	int err = link < 0 ? errno : 0;
	if (link >= 0)
		close(link);
	close(prog);
	return err;
}

} // namespace

int kprobe_multi_errno()
{
	// vfs_read: in every kernel, traceable by ftrace (fbt's own tests
	// trace it).
	static const int err = try_kprobe_multi("vfs_read");
	return err;
}

bool is_single_kprobe(const attach_point &p)
{
	return (p.kind == DT_BPF_ATTACH_KPROBE || p.kind == DT_BPF_ATTACH_KRETPROBE) &&
	       p.multi.empty() && !p.target.empty() && p.offset == 0 &&
	       (p.ctx ==
		(p.kind == DT_BPF_ATTACH_KPROBE ? DT_BPF_CTX_REGS : DT_BPF_CTX_REGS_RETURN)) &&
	       p.filter_arg < 0 && p.filter_steps.empty();
}

attach_point kprobe_multi_of(const std::vector<const attach_point *> &points,
			     std::vector<uint32_t> &cookie)
{
	DT_ASSERT(!points.empty());
	attach_point m = *points.front();
	m.target.clear();
	std::map<std::string, uint32_t> index; // name -> cookie
	cookie.clear();
	for (const attach_point *p : points) {
		auto [it, fresh] =
			index.try_emplace(p->target, static_cast<uint32_t>(m.multi.size()));
		if (fresh)
			m.multi.push_back(p->target);
		cookie.push_back(it->second);
	}
	return m;
}

namespace {

// The BPF_LINK_CREATE attributes of a uprobe_multi link (union bpf_attr's
// link_create, Linux 6.6), laid out here since the installed uapi header
// may not have them; the kernel reads past its own size only zeros.
struct uprobe_multi_attr {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t multi_flags; // BPF_F_UPROBE_MULTI_RETURN
	uint32_t pid;
	uint32_t pad;
};
static_assert(offsetof(uprobe_multi_attr, path) == 16 && sizeof(uprobe_multi_attr) == 64);

constexpr uint32_t k_uprobe_multi_return = 1; // BPF_F_UPROBE_MULTI_RETURN

int link_uprobe_multi(int prog_fd, const char *path, const uint64_t *offsets,
		      const uint64_t *cookies, uint32_t cnt, bool ret, int32_t pid)
{
	uprobe_multi_attr attr{};
	attr.prog_fd = static_cast<uint32_t>(prog_fd);
	attr.attach_type = k_trace_uprobe_multi;
	attr.path = reinterpret_cast<uint64_t>(path);
	attr.offsets = reinterpret_cast<uint64_t>(offsets);
	attr.cookies = reinterpret_cast<uint64_t>(cookies);
	attr.cnt = cnt;
	attr.multi_flags = ret ? k_uprobe_multi_return : 0;
	attr.pid = pid > 0 ? static_cast<uint32_t>(pid) : 0;
	return static_cast<int>(syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr)));
}

int try_uprobe_multi()
{
	struct bpf_insn insns[2] = {};
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[1].code = BPF_JMP | BPF_EXIT;
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	o.expected_attach_type = static_cast<enum bpf_attach_type>(k_trace_uprobe_multi);
	int prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dt_upm_check", "GPL", insns, 2, &o);
	if (prog < 0)
		return errno;
	uint64_t offset = 0;
	int link = link_uprobe_multi(prog, "/", &offset, nullptr, 1, false, 0);
	int err = link < 0 ? errno : EINVAL;
	if (link >= 0)
		close(link);
	close(prog);
	return err == EBADF ? 0 : err;
}

} // namespace

int uprobe_multi_errno()
{
	static const int err = try_uprobe_multi();
	return err;
}

bool is_single_uprobe(const attach_point &p)
{
	return (p.kind == DT_BPF_ATTACH_UPROBE || p.kind == DT_BPF_ATTACH_URETPROBE) &&
	       p.multi_offsets.empty() && !p.target.empty() && p.ref_ctr_offset == 0 &&
	       (p.ctx == DT_BPF_CTX_REGS || p.ctx == DT_BPF_CTX_REGS_RETURN ||
		p.ctx == DT_BPF_CTX_REGS_INSN) &&
	       p.filter_arg < 0 && p.filter_steps.empty();
}

attach_point uprobe_multi_of(const std::vector<const attach_point *> &points,
			     std::vector<uint32_t> &cookie)
{
	DT_ASSERT(!points.empty());
	attach_point m = *points.front();
	m.offset = 0;
	std::map<uint64_t, uint32_t> index; // offset -> cookie
	cookie.clear();
	for (const attach_point *p : points) {
		auto [it, fresh] =
			index.try_emplace(p->offset, static_cast<uint32_t>(m.multi_offsets.size()));
		if (fresh)
			m.multi_offsets.push_back(p->offset);
		cookie.push_back(it->second);
	}
	return m;
}

bool is_trampoline(const attach_point &p)
{
	return p.kind == DT_BPF_ATTACH_FENTRY || p.kind == DT_BPF_ATTACH_FEXIT;
}

attach_point kprobe_fallback(const attach_point &p)
{
	attach_point k;
	k.target = p.target;
	k.kind = p.kind == DT_BPF_ATTACH_FENTRY ? DT_BPF_ATTACH_KPROBE : DT_BPF_ATTACH_KRETPROBE;
	k.ctx = p.kind == DT_BPF_ATTACH_FENTRY ? DT_BPF_CTX_REGS : DT_BPF_CTX_REGS_RETURN;
	return k;
}

ctx_kind ctx_kind_of(const attach_point &p)
{
	switch (p.ctx) {
	case DT_BPF_CTX_SYS_ENTER: return ctx_kind::sys_enter;
	case DT_BPF_CTX_SYS_EXIT: return ctx_kind::sys_exit;
	case DT_BPF_CTX_PERF: return ctx_kind::perf_event;
	case DT_BPF_CTX_REGS:
	case DT_BPF_CTX_REGS_INSN: return ctx_kind::regs;
	case DT_BPF_CTX_REGS_RETURN: return ctx_kind::regs_return;
	case DT_BPF_CTX_TP_RECORD: return ctx_kind::tp_record;
	case DT_BPF_CTX_USDT: return ctx_kind::usdt;
	default: return ctx_kind::raw_tp;
	}
}

std::vector<uint32_t> online_cpus()
{
	std::vector<uint32_t> out;
	std::ifstream in("/sys/devices/system/cpu/online");
	std::string line;
	std::getline(in, line);
	std::stringstream ss(line);
	std::string range;
	while (std::getline(ss, range, ',')) {
		if (range.empty())
			continue;
		auto dash = range.find('-');
		uint32_t lo = static_cast<uint32_t>(std::stoul(range.substr(0, dash)));
		uint32_t hi = dash == std::string::npos
				      ? lo
				      : static_cast<uint32_t>(std::stoul(range.substr(dash + 1)));
		for (uint32_t c = lo; c <= hi; c++)
			out.push_back(c);
	}
	if (out.empty())
		for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN); c++)
			out.push_back(static_cast<uint32_t>(c));
	return out;
}

std::vector<unique_fd> attach(const attach_point &p, int prog_fd, const std::string &what)
{
	std::vector<unique_fd> fds;
	auto fail = [&](const std::string &how, int err) {
		throw engine_error("cannot attach " + what + " (" + p.describe() + "): " + how +
				   ": " + errno_text(err));
	};
	// A perf event that runs the program: opened, given the program, and
	// enabled at once unless the caller enables a group together.
	auto open_event = [&](struct perf_event_attr &attr, pid_t pid, int cpu,
			      const std::string &how, bool enable) {
		int fd = perf_event_open(&attr, pid, cpu);
		if (fd < 0)
			fail(how, errno);
		unique_fd pfd(fd);
		if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) != 0)
			fail("PERF_EVENT_IOC_SET_BPF", errno);
		if (enable && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
			fail("PERF_EVENT_IOC_ENABLE", errno);
		fds.push_back(std::move(pfd));
	};
	switch (p.kind) {
	case DT_BPF_ATTACH_RAW_TRACEPOINT: {
		int fd = bpf_raw_tracepoint_open(p.target.c_str(), prog_fd);
		if (fd < 0)
			fail("bpf_raw_tracepoint_open", errno);
		fds.emplace_back(fd);
		break;
	}
	case DT_BPF_ATTACH_TRACEPOINT: {
		uint64_t id = p.offset;
		if (id == 0)
			id = tracepoint_id(p.target);
		if (id == 0)
			fail("no tracefs ID for the event", ENOENT);
		struct perf_event_attr attr {};
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = id;
		// As libbpf: one event on CPU 0; the program is the event's,
		// and runs wherever it fires.
		open_event(attr, -1, 0, "perf_event_open (tracepoint)", true);
		break;
	}
	case DT_BPF_ATTACH_PERF_EVENT: {
		std::vector<uint32_t> cpus;
		if (p.cpu >= 0)
			cpus.push_back(static_cast<uint32_t>(p.cpu));
		else
			cpus = online_cpus();
		for (uint32_t cpu : cpus) {
			struct perf_event_attr attr {};
			attr.size = sizeof(attr);
			attr.type = PERF_TYPE_SOFTWARE;
			attr.config = PERF_COUNT_SW_CPU_CLOCK;
			attr.sample_period = p.period_ns;
			attr.disabled = 1;
			open_event(attr, -1, static_cast<int>(cpu),
				   "perf_event_open on CPU " + std::to_string(cpu), false);
		}
		// Enabled together once every CPU's event holds the program.
		for (const unique_fd &fd : fds)
			if (ioctl(fd.get(), PERF_EVENT_IOC_ENABLE, 0) != 0)
				fail("PERF_EVENT_IOC_ENABLE", errno);
		break;
	}
	case DT_BPF_ATTACH_UPROBE:
	case DT_BPF_ATTACH_URETPROBE: {
		if (!p.multi_offsets.empty()) {
			// One link for every offset: cookie i on multi_offsets[i]
			// (the kernel keeps each pair together); for process
			// `pid` only, as the single uprobes below.
			std::vector<uint64_t> cookies(p.multi_offsets.size());
			for (size_t i = 0; i < cookies.size(); i++)
				cookies[i] = i;
			int fd = link_uprobe_multi(prog_fd, p.target.c_str(),
						   p.multi_offsets.data(), cookies.data(),
						   static_cast<uint32_t>(cookies.size()),
						   p.kind == DT_BPF_ATTACH_URETPROBE, p.pid);
			if (fd < 0)
				fail("bpf_link_create (uprobe_multi)", errno);
			fds.emplace_back(fd);
			break;
		}
		// The uprobe PMU (perf_event_open(2)): config1 the file, config2
		// the offset in it, the retprobe bit from its format.
		uint32_t type = 0, retbit = 0;
		std::ifstream("/sys/bus/event_source/devices/uprobe/type") >> type;
		if (type == 0)
			fail("this kernel has no uprobe event source", ENOENT);
		std::string fmt;
		std::ifstream("/sys/bus/event_source/devices/uprobe/format/retprobe") >> fmt;
		if (fmt.rfind("config:", 0) == 0)
			retbit = static_cast<uint32_t>(std::stoul(fmt.substr(7)));
		// A USDT semaphore: the reference counter's offset in config
		// bits 32-63 (format/ref_ctr_offset, Linux 4.20).
		uint64_t ref_ctr = 0;
		if (p.ref_ctr_offset != 0) {
			std::string rf;
			std::ifstream(
				"/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset") >>
				rf;
			if (rf.rfind("config:", 0) != 0)
				fail("this kernel's uprobes have no reference counter for a USDT "
				     "semaphore",
				     EOPNOTSUPP);
			ref_ctr = p.ref_ctr_offset << std::stoul(rf.substr(7));
		}
		// One event. For a process (pid > 0) on every CPU, as libbpf
		// attaches: the kernel's uprobe filter then places the breakpoint
		// in that process's address space only, and other processes
		// mapping the file (every process maps libc) never trap. Without
		// a process, on CPU 0 for every process (the program runs
		// wherever the probe hits). The program's prologue checks the
		// process again (probe_spec::pid).
		pid_t pid = p.pid > 0 ? p.pid : -1;
		for (int cpu : {pid > 0 ? -1 : 0}) {
			struct perf_event_attr attr {};
			attr.size = sizeof(attr);
			attr.type = type;
			attr.config = (p.kind == DT_BPF_ATTACH_URETPROBE ? (1ULL << retbit) : 0) |
				      ref_ctr;
			attr.config1 = reinterpret_cast<uint64_t>(p.target.c_str());
			attr.config2 = p.offset;
			attr.sample_period = 1;
			attr.wakeup_events = 1;
			open_event(attr, pid, cpu, "perf_event_open (uprobe)", true);
		}
		break;
	}
	case DT_BPF_ATTACH_KPROBE:
	case DT_BPF_ATTACH_KRETPROBE: {
		if (!p.multi.empty()) {
			// One fprobe for every function: cookie i on multi[i]
			// (the kernel sorts both arrays together).
			std::vector<const char *> syms;
			std::vector<__u64> cookies;
			for (size_t i = 0; i < p.multi.size(); i++) {
				syms.push_back(p.multi[i].c_str());
				cookies.push_back(i);
			}
			LIBBPF_OPTS(bpf_link_create_opts, lo);
			lo.kprobe_multi.syms = syms.data();
			lo.kprobe_multi.cookies = cookies.data();
			lo.kprobe_multi.cnt = static_cast<__u32>(syms.size());
			lo.kprobe_multi.flags =
				p.kind == DT_BPF_ATTACH_KRETPROBE ? BPF_F_KPROBE_MULTI_RETURN : 0;
			int fd = bpf_link_create(prog_fd, 0, BPF_TRACE_KPROBE_MULTI, &lo);
			if (fd < 0)
				fail("bpf_link_create (kprobe_multi)", errno);
			fds.emplace_back(fd);
			break;
		}
		// The kprobe PMU (perf_event_open(2)): config1 the function's
		// name, config2 the offset in it, the retprobe bit from its
		// format. One event on CPU 0 for every task, as libbpf.
		uint32_t type = 0, retbit = 0;
		std::ifstream("/sys/bus/event_source/devices/kprobe/type") >> type;
		if (type == 0)
			fail("this kernel has no kprobe event source", ENOENT);
		std::string fmt;
		std::ifstream("/sys/bus/event_source/devices/kprobe/format/retprobe") >> fmt;
		if (fmt.rfind("config:", 0) == 0)
			retbit = static_cast<uint32_t>(std::stoul(fmt.substr(7)));
		struct perf_event_attr attr {};
		attr.size = sizeof(attr);
		attr.type = type;
		attr.config = p.kind == DT_BPF_ATTACH_KRETPROBE ? (1ULL << retbit) : 0;
		attr.config1 = reinterpret_cast<uint64_t>(p.target.c_str());
		attr.config2 = p.kind == DT_BPF_ATTACH_KRETPROBE ? 0 : p.offset;
		attr.sample_period = 1;
		attr.wakeup_events = 1;
		open_event(attr, -1, 0, "perf_event_open (kprobe)", true);
		break;
	}
	case DT_BPF_ATTACH_FENTRY:
	case DT_BPF_ATTACH_FEXIT: {
		// A BPF trampoline: the program was loaded for the function
		// (attach_btf_id); the link attaches it there.
		enum bpf_attach_type t =
			p.kind == DT_BPF_ATTACH_FENTRY ? BPF_TRACE_FENTRY : BPF_TRACE_FEXIT;
		int fd = bpf_link_create(prog_fd, 0, t, nullptr);
		if (fd < 0 && errno == EINVAL) // before BPF_LINK_CREATE (5.7)
			fd = bpf_raw_tracepoint_open(nullptr, prog_fd);
		if (fd < 0)
			fail("bpf_link_create", errno);
		fds.emplace_back(fd);
		break;
	}
	case DT_BPF_ATTACH_CONSUMER: break;
	default: fail(unsupported(p), EOPNOTSUPP);
	}
	return fds;
}

void run_on_cpu(int prog_fd, uint32_t cpu)
{
	// A raw tracepoint's context: up to 12 u64 arguments, all zero.
	uint64_t ctx[12] = {};
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = ctx, .ctx_size_in = sizeof(ctx),
		    .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);
	if (bpf_prog_test_run_opts(prog_fd, &o) != 0)
		throw engine_error("bpf engine: cannot run a program on CPU " +
				   std::to_string(cpu) + ": " + errno_text(errno));
}

} // namespace dt::engines::bpf
