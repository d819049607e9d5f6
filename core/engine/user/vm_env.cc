// SPDX-License-Identifier: MIT
// The DIF VM's environment in the user engine (dif_env.h): the consumer
// process is "the current process". Built-ins describe the dtrace process
// itself (pid, tid, execname "dtrace", ...); user-space loads read our own
// memory with process_vm_readv, which reports a bad address instead of
// crashing; kernel-space loads reach only DTrace-owned memory (the VM
// reads scratch, string tables and variables itself; the built-in strings
// are read here) and fault with BADADDR anywhere else, as an unmapped
// kernel address does on illumos.
#include "state.hpp"
#include "util/bytes.hpp"

#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace dt::engines::user {
namespace {

const char k_zonename[] = "global";
constexpr uint64_t k_page = 4096; // the smallest page size: a safe chunk bound

firing_env &fenv(void *env)
{
	return *static_cast<firing_env *>(env);
}

bool in(uint64_t addr, uint64_t size, const void *base, uint64_t len)
{
	auto b = reinterpret_cast<uint64_t>(base);
	return addr >= b && size <= len && addr - b <= len - size;
}

// The built-in strings: NUL-terminated, readable in kernel space.
const uint8_t *builtin_memory(const state &st, const firing_env &fe, uint64_t addr, uint64_t size)
{
	const std::string *strs[] = {&st.execname, nullptr, nullptr, nullptr, nullptr};
	if (fe.e != nullptr) {
		strs[1] = &fe.e->ep.probe.provider;
		strs[2] = &fe.e->ep.probe.mod;
		strs[3] = &fe.e->ep.probe.func;
		strs[4] = &fe.e->ep.probe.name;
	}
	for (const std::string *s : strs)
		if (s != nullptr && in(addr, size, s->c_str(), s->size() + 1))
			return reinterpret_cast<const uint8_t *>(addr);
	if (in(addr, size, k_zonename, sizeof(k_zonename)))
		return reinterpret_cast<const uint8_t *>(addr);
	return nullptr;
}

uint64_t env_load(void *env, uint64_t addr, uint32_t size, enum dif_space space, uint16_t *fault)
{
	firing_env &fe = fenv(env);
	if (space == DIF_SPACE_KERNEL) {
		if (const uint8_t *p = builtin_memory(*fe.st, fe, addr, size))
			return bytes::load_uint(p, size);
		*fault = DTRACEFLT_BADADDR;
		return 0;
	}
	uint8_t buf[8] = {};
	if (!safe_read(addr, buf, size)) {
		*fault = DTRACEFLT_BADADDR;
		return 0;
	}
	return bytes::load_uint(buf, size);
}

uint64_t env_copystr(void *env, uint64_t addr, char *dst, uint64_t max, enum dif_space space,
		     uint16_t *fault)
{
	firing_env &fe = fenv(env);
	uint64_t n = 0;
	while (n + 1 < max) {
		if (space == DIF_SPACE_KERNEL) {
			const uint8_t *p = builtin_memory(*fe.st, fe, addr + n, 1);
			if (p == nullptr) {
				*fault = DTRACEFLT_BADADDR;
				break;
			}
			if (*p == '\0')
				break;
			dst[n++] = static_cast<char>(*p);
			continue;
		}
		// User space: read up to the end of the page at once (a page is
		// mapped or not as a whole), then look for the NUL.
		uint64_t a = addr + n;
		uint64_t chunk = std::min<uint64_t>(max - 1 - n, k_page - (a & (k_page - 1)));
		if (!safe_read(a, dst + n, chunk)) {
			*fault = DTRACEFLT_BADADDR;
			break;
		}
		auto *nul = static_cast<char *>(std::memchr(dst + n, '\0', chunk));
		if (nul != nullptr) {
			n = static_cast<uint64_t>(nul - dst);
			break;
		}
		n += chunk;
	}
	dst[n] = '\0';
	return n;
}

uint64_t clock_ns(clockid_t id)
{
	struct timespec ts {};
	clock_gettime(id, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
	       static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t addr_of(const std::string &s)
{
	return reinterpret_cast<uint64_t>(s.c_str());
}

// Where cgroup v2 is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified
// on a hybrid system), from /proc/self/mountinfo; "" if nowhere.
std::string cgroup2_mount()
{
	std::ifstream in("/proc/self/mountinfo");
	std::string line;
	while (std::getline(in, line)) {
		// id parent major:minor root mountpoint options... - fstype ...
		size_t dash = line.find(" - cgroup2 ");
		if (dash == std::string::npos)
			continue;
		std::istringstream f(line);
		std::string skip, mnt;
		f >> skip >> skip >> skip >> skip >> mnt;
		return mnt;
	}
	return {};
}

// This process's cgroup v2 id, as bpf_get_current_cgroup_id() gives it
// to a probe: the inode number of its cgroup's directory, from the
// "0::/path" line of /proc/self/cgroup; 0 without cgroup v2.
uint64_t own_cgroup_id()
{
	std::ifstream in("/proc/self/cgroup");
	std::string line;
	while (std::getline(in, line))
		if (line.starts_with("0::")) {
			struct stat st {};
			std::string dir = cgroup2_mount() + line.substr(3);
			return stat(dir.c_str(), &st) == 0 ? st.st_ino : 0;
		}
	return 0;
}

uint64_t env_builtin(void *env, uint32_t id, uint64_t, uint16_t *fault)
{
	firing_env &fe = fenv(env);
	const probe_desc &pd = fe.e->ep.probe;
	switch (id) {
	case DIF_VAR_TIMESTAMP: return fe.timestamp;
	case DIF_VAR_VTIMESTAMP:
		// As illumos, one value for the whole firing (its clauses'
		// own time is not the thread's): read once, then kept.
		if (fe.vtimestamp == 0)
			fe.vtimestamp = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		return fe.vtimestamp;
	case DIF_VAR_WALLTIMESTAMP: return clock_ns(CLOCK_REALTIME);
	case DIF_VAR_EPID: return fe.e->ep.epid;
	case DIF_VAR_ID: return fe.e->ep.probe_id;
	case DIF_VAR_PROBEPROV: return addr_of(pd.provider);
	case DIF_VAR_PROBEMOD: return addr_of(pd.mod);
	case DIF_VAR_PROBEFUNC: return addr_of(pd.func);
	case DIF_VAR_PROBENAME: return addr_of(pd.name);
	case DIF_VAR_CPU: return fe.cpu;
	case DIF_VAR_PID: return static_cast<uint64_t>(getpid());
	case DIF_VAR_TID: return static_cast<uint64_t>(gettid());
	case DIF_VAR_PPID: return static_cast<uint64_t>(getppid());
	// The user engine's process is dtrace: its own namespace's ids.
	case DIF_VAR_NSPID: return static_cast<uint64_t>(getpid());
	case DIF_VAR_NSTID: return static_cast<uint64_t>(gettid());
	case DIF_VAR_NSPPID: return static_cast<uint64_t>(getppid());
	case DIF_VAR_CGROUP: return own_cgroup_id();
	case DIF_VAR_UID: return getuid();
	case DIF_VAR_GID: return getgid();
	case DIF_VAR_EXECNAME: return addr_of(fe.st->execname);
	case DIF_VAR_ZONENAME: return reinterpret_cast<uint64_t>(k_zonename);
	case DIF_VAR_ERRNO:
	case DIF_VAR_IPL:
	case DIF_VAR_STACKDEPTH:
	case DIF_VAR_USTACKDEPTH:
	case DIF_VAR_CALLER:
	case DIF_VAR_UCALLER:
	case DIF_VAR_CURTHREAD: return 0;
	default: *fault = DTRACEFLT_ILLOP; return 0;
	}
}

uint64_t env_getarg(void *env, uint64_t n, uint16_t *)
{
	firing_env &fe = fenv(env);
	return n < fe.args.size() ? fe.args[n] : 0;
}

void env_copyin(void *, uint64_t uaddr, void *dst, uint64_t size, uint16_t *fault)
{
	if (!safe_read(uaddr, dst, size))
		*fault = DTRACEFLT_BADADDR;
}

void env_copyout(void *env, const void *src, uint64_t uaddr, uint64_t size, uint16_t *fault)
{
	if (!fenv(env).st->settings.destructive) {
		*fault = DTRACEFLT_UPRIV;
		return;
	}
	struct iovec local {
		const_cast<void *>(src), size
	};
	struct iovec remote {
		reinterpret_cast<void *>(uaddr), size
	};
	if (process_vm_writev(getpid(), &local, 1, &remote, 1, 0) != static_cast<ssize_t>(size))
		*fault = DTRACEFLT_BADADDR;
}

// d_path(struct path *): the path is kernel memory, which this engine
// has none of -- BADADDR at its address, as any kernel load here.
void env_d_path(void *, uint64_t, char *, uint64_t, uint16_t *fault)
{
	*fault = DTRACEFLT_BADADDR;
}

uint64_t env_speculation(void *env)
{
	state &st = *fenv(env).st;
	for (size_t i = 0; i < st.specs.size(); i++) {
		if (st.specs[i].st == spec_buffer::state::inactive) {
			st.specs[i].st = spec_buffer::state::active;
			st.specs[i].used = 0;
			st.specs[i].firings.clear();
			return i + 1;
		}
	}
	st.spec_unavail++;
	return 0;
}

// Parent of pid from /proc/PID/stat (field 4), or 0.
int32_t parent_of(int32_t pid)
{
	std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
	std::string s;
	std::getline(in, s);
	auto rp = s.rfind(')');
	if (rp == std::string::npos || rp + 4 > s.size())
		return 0;
	return static_cast<int32_t>(std::strtol(s.c_str() + rp + 4, nullptr, 10));
}

uint64_t env_progenyof(void *, uint64_t pid)
{
	int32_t p = getpid();
	for (int depth = 0; p > 0 && depth < 4096; depth++) {
		if (static_cast<uint64_t>(p) == pid)
			return 1;
		p = parent_of(p);
	}
	return 0;
}

const dif_env_ops_t k_ops = {
	.load = env_load,
	.copystr = env_copystr,
	.builtin = env_builtin,
	.getarg = env_getarg,
	.copyin = env_copyin,
	.copyout = env_copyout,
	.speculation = env_speculation,
	.progenyof = env_progenyof,
	.d_path = env_d_path,
};

} // namespace

const dif_env_ops_t &env_ops()
{
	return k_ops;
}

bool safe_read(uint64_t addr, void *dst, uint64_t size)
{
	if (size == 0)
		return true;
	struct iovec local {
		dst, size
	};
	struct iovec remote {
		reinterpret_cast<void *>(addr), size
	};
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

const uint8_t *owned_memory(const state &st, const firing_env &fe, const dif_ctx_t &ctx,
			    uint64_t addr, uint64_t size)
{
	if (ctx.scratch != nullptr && in(addr, size, ctx.scratch, ctx.scratch_used))
		return reinterpret_cast<const uint8_t *>(addr);
	if (ctx.difo != nullptr && ctx.difo->strtab != nullptr &&
	    in(addr, size, ctx.difo->strtab, ctx.difo->strlen))
		return reinterpret_cast<const uint8_t *>(addr);
	if (!st.varmem.empty() && in(addr, size, st.varmem.data(), st.varmem.size()))
		return reinterpret_cast<const uint8_t *>(addr);
	if (!st.dynmem.empty() && in(addr, size, st.dynmem.data(), st.dynmem.size() * 8))
		return reinterpret_cast<const uint8_t *>(addr);
	return builtin_memory(st, fe, addr, size);
}

} // namespace dt::engines::user
