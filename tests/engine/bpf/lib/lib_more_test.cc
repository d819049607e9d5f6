// SPDX-License-Identifier: MIT
//
// lib_more_test.cc - the BPF library functions lib_test.cc does not reach:
// copies (dt_copy, bcopy, copyinto), record and key writers, stack()/
// ustack() records, progenyof() and the task-based built-ins (ppid,
// vtimestamp: dt_status offsets from /sys/kernel/btf/vmlinux as the
// runtime fills them), walltimestamp, stack depths and callers, and the
// perf-event prologue helper on a real perf event.
#include "lib_fixture.hpp"

#include <bpf/btf.h>
#include <linux/perf_event.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include <fstream>
#include <sstream>

namespace {

using namespace bpflib_test;

constexpr uint64_t SS = 256;

bool is_kernel_addr(uint64_t a)
{
	return a >= 0xffff800000000000ull;
}

// Is a inside an executable mapping of this process?
bool in_exec_mapping(uint64_t a)
{
	std::ifstream f("/proc/self/maps");
	std::string line;
	while (std::getline(f, line)) {
		unsigned long lo, hi;
		char perm[8] = {};
		if (std::sscanf(line.c_str(), "%lx-%lx %7s", &lo, &hi, perm) == 3 && perm[2] == 'x' &&
		    a >= lo && a < hi)
			return true;
	}
	return false;
}

// Byte offset of member name in struct sname (vmlinux BTF), or 0.
uint32_t btf_offset(const btf *b, const char *sname, const char *name, uint32_t *type = nullptr)
{
	int id = btf__find_by_name_kind(b, sname, BTF_KIND_STRUCT);
	if (id < 0)
		return 0;
	const btf_type *t = btf__type_by_id(b, static_cast<uint32_t>(id));
	const btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++)
		if (std::strcmp(btf__name_by_offset(b, m[i].name_off), name) == 0) {
			if (type)
				*type = m[i].type;
			return btf_member_bit_offset(t, static_cast<uint32_t>(i)) / 8;
		}
	return 0;
}

// Fill dt_status as the runtime does before BEGIN; false if BTF is missing.
bool fill_status()
{
	btf *b = btf__load_vmlinux_btf();
	if (!b)
		return false;
	dt_bpf_status st{};
	st.activity = DT_BPF_ACTIVE;
	st.task_real_parent = btf_offset(b, "task_struct", "real_parent");
	st.task_tgid = btf_offset(b, "task_struct", "tgid");
	uint32_t se = btf_offset(b, "task_struct", "se");
	uint32_t sum = btf_offset(b, "sched_entity", "sum_exec_runtime");
	st.task_sum_exec = se && sum ? se + sum : 0;
	// The pid-namespace walk (nspid, nstid, nsppid), as maps.cc fills it.
	st.task_thread_pid = btf_offset(b, "task_struct", "thread_pid");
	st.task_group_leader = btf_offset(b, "task_struct", "group_leader");
	st.pid_level = btf_offset(b, "pid", "level");
	st.pid_numbers = btf_offset(b, "pid", "numbers");
	int upid = btf__find_by_name_kind(b, "upid", BTF_KIND_STRUCT);
	st.upid_size = upid > 0 ? static_cast<uint32_t>(btf__resolve_size(b, upid)) : 0;
	st.upid_nr = btf_offset(b, "upid", "nr");
	st.upid_ns = btf_offset(b, "upid", "ns");
	timespec rt{}, bt{};
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	st.wall_offset = (rt.tv_sec - bt.tv_sec) * 1000000000ll + (rt.tv_nsec - bt.tv_nsec);
	btf__free(b);
	uint32_t k = 0;
	return st.task_real_parent && st.task_tgid && st.task_sum_exec &&
	       bpf_map_update_elem(L().status_fd, &k, &st, 0) == 0;
}

uint64_t now_ns(clockid_t c)
{
	timespec ts{};
	clock_gettime(c, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

TEST(BpfLibMore, Copies)
{
	NEED_LIB();
	auto &l = L();
	uint64_t K = l.kstr(0x100, "kernel bytes here");
	uint64_t S = l.strtab(0x200, "strtab bytes");
	static const char user[] = "user bytes";
	auto U = reinterpret_cast<uint64_t>(user);
	auto block = [&](uint64_t off, size_t n) {
		return std::string(reinterpret_cast<const char *>(l.m()->scratch) +
					   DT_BPF_TAG_OFF(l.m()->regs[1]) + off,
				   n);
	};
	for (uint64_t kind : {0, 1}) { // dt_copy, bcopy
		l.run("t_copy", {3, K, 6, 0, kind});
		EXPECT_EQ(l.fault(), 0u);
		EXPECT_EQ(block(0, 12), std::string("\0\0\0kernel\0\0\0", 12)) << kind;
		l.run("t_copy", {0, S, 12, 0, kind});
		EXPECT_EQ(block(0, 12), "strtab bytes");
		l.run("t_copy", {60, K, 8, 0, kind}); // past the 64-byte block
		EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_BADADDR));
		l.run("t_copy", {0, 0xdead0000ull, 8, 0, kind});
		EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_BADADDR));
		EXPECT_EQ(l.illval(), 0xdead0000ull);
		l.run("t_copy", {0, K, 8, l.kbase, kind}); // kernel memory is not writable
		EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_BADADDR));
		EXPECT_EQ(l.illval(), l.kbase);
	}
	l.run("t_copy", {8, U, 10, 0, 2}); // copyinto
	EXPECT_EQ(l.fault(), 0u);
	EXPECT_EQ(block(8, 10), "user bytes");
	l.run("t_copy", {8, K, 10, 0, 2}); // a kernel address is no user address
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_BADADDR));
	// A large copy (several pieces) into alloca'd scratch.
	std::string big(3000, 'z');
	for (size_t i = 0; i < big.size(); i++)
		big[i] = static_cast<char>('a' + i % 26);
	uint64_t B = l.kstr(0x1000, big);
	l.run("t_copy", {5, B, 2999, 0, 0, 4000});
	EXPECT_EQ(l.fault(), 0u);
	EXPECT_EQ(block(5, 2999), big.substr(0, 2999));
	EXPECT_EQ(block(3004, 996), std::string(996, '\0')); // alloca zeroes
	l.run("t_copy", {5, B, 3996, 0, 0, 4000}); // one byte too many
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_BADADDR));
}

TEST(BpfLibMore, RecordAndKeyWriters)
{
	NEED_LIB();
	auto &l = L();
	const uint8_t bytes[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
	uint64_t K = l.kput(0x300, bytes, sizeof(bytes));
	l.run("t_rec_bytes", {40, K, 12});
	EXPECT_EQ(l.fault(), 0u);
	EXPECT_EQ(std::memcmp(l.m()->buf + 40, bytes, 12), 0);
	l.run("t_rec_bytes", {DT_BPF_BUF_SIZE + 8, K, 12}); // past the buffer
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_ILLOP));
	l.run("t_rec_bytes", {40, 0xdead0000ull, 12});
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_BADADDR));
	l.run("t_key_bytes", {16, K, 12});
	EXPECT_EQ(std::memcmp(l.m()->key + 16, bytes, 12), 0);
	uint64_t S = l.strtab(0x300, "key string");
	l.run("t_key_str", {32, S, 8}); // at most size - 1 characters
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(l.m()->key) + 32, 8),
		  std::string("key str\0", 8));
	l.run("t_key_str", {32, S, 16});
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(l.m()->key) + 32, 16),
		  std::string("key string\0\0\0\0\0\0", 16));
	// Aggregation keys reach past the dvar keys' 2 KiB to 16 KiB.
	l.run("t_key_str", {DT_BPF_AGG_KEY_SIZE - 16, S, 16});
	EXPECT_EQ(l.fault(), 0u);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(l.m()->key) + DT_BPF_AGG_KEY_SIZE - 16,
			      11),
		  std::string("key string\0", 11));
	l.run("t_key_str", {DT_BPF_AGG_KEY_SIZE - 4, S, 16});
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_ILLOP));
	l.run("t_rec_str", {64, 0, 8}); // NULL: an empty string
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(l.m()->buf) + 64, 8),
		  std::string(8, '\0'));
}

TEST(BpfLibMore, Stacks)
{
	NEED_LIB();
	auto &l = L();
	l.run("t_rec_stack", {64, 4});
	EXPECT_EQ(l.fault(), 0u);
	uint64_t f[5];
	std::memcpy(f, l.m()->buf + 64, sizeof(f));
	EXPECT_TRUE(is_kernel_addr(f[0])) << std::hex << f[0];
	l.run("t_rec_ustack", {128, 4});
	EXPECT_EQ(l.fault(), 0u);
	std::memcpy(f, l.m()->buf + 128, sizeof(f));
	EXPECT_EQ(f[0], static_cast<uint64_t>(getpid()));
	EXPECT_TRUE(in_exec_mapping(f[1])) << std::hex << f[1];
	l.run("t_rec_stack", {DT_BPF_BUF_SIZE, 8});
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_ILLOP));
	EXPECT_GT(l.run("t_builtin", {DIF_VAR_STACKDEPTH, SS}), 0u);
	EXPECT_GT(l.run("t_builtin", {DIF_VAR_USTACKDEPTH, SS}), 0u);
	EXPECT_TRUE(is_kernel_addr(l.run("t_builtin", {DIF_VAR_CALLER, SS})));
	// ucaller is user frame 1 (illumos dtrace_getupcstack()[2]), not the
	// pc. This test program has no frame pointers, so what frame 1 holds
	// here is whatever the walk finds; PidRuntime.UcallerIsTheSecondFrameOfUstack
	// checks it against ustack() on a frame-pointer build.
	EXPECT_NE(l.run("t_builtin", {DIF_VAR_UCALLER, SS}), f[1]);
}

TEST(BpfLibMore, TaskBuiltinsAndProgenyof)
{
	NEED_LIB();
	auto &l = L();
	if (!fill_status())
		GTEST_SKIP() << "no task_struct offsets in /sys/kernel/btf/vmlinux";
	EXPECT_EQ(l.run("t_builtin", {DIF_VAR_PPID, SS}), static_cast<uint64_t>(getppid()));
	EXPECT_EQ(l.fault(), 0u);
	uint64_t before = now_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t v = l.run("t_builtin", {DIF_VAR_VTIMESTAMP, SS});
	uint64_t after = now_ns(CLOCK_THREAD_CPUTIME_ID);
	EXPECT_EQ(l.fault(), 0u);
	EXPECT_GT(v, 0u);
	EXPECT_LE(v, after);
	(void)before; // sum_exec_runtime lags the clock by the running slice
	uint64_t w0 = now_ns(CLOCK_REALTIME);
	uint64_t w = l.run("t_builtin", {DIF_VAR_WALLTIMESTAMP, SS});
	uint64_t w1 = now_ns(CLOCK_REALTIME);
	EXPECT_GE(w + 1000000, w0); // the offset was sampled a moment ago: 1 ms slack
	EXPECT_LE(w, w1 + 1000000);
	EXPECT_EQ(l.run("t_progenyof", {static_cast<uint64_t>(getpid())}), 1u);
	EXPECT_EQ(l.run("t_progenyof", {static_cast<uint64_t>(getppid())}), 1u);
	EXPECT_EQ(l.run("t_progenyof", {1}), 1u);
	// A child's pid: we do not descend from our own child.
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	ASSERT_GT(c, 0);
	EXPECT_EQ(l.run("t_progenyof", {static_cast<uint64_t>(c)}), 0u);
	waitpid(c, nullptr, 0);
	EXPECT_EQ(l.fault(), 0u);
}

// nspid, nstid, nsppid: the host's numbers in the host's namespace; in a
// new pid namespace, 1 and 1 for its first process and 0 for its parent
// (outside), while pid stays the host's. cgroup: the inode number of this
// process's cgroup v2 directory.
TEST(BpfLibMore, NamespaceIdsAndCgroup)
{
	NEED_LIB();
	auto &l = L();
	if (!fill_status())
		GTEST_SKIP() << "no task_struct offsets in /sys/kernel/btf/vmlinux";
	EXPECT_EQ(l.run("t_builtin", {DIF_VAR_NSPID, SS}), static_cast<uint64_t>(getpid()));
	EXPECT_EQ(l.run("t_builtin", {DIF_VAR_NSTID, SS}), static_cast<uint64_t>(gettid()));
	EXPECT_EQ(l.run("t_builtin", {DIF_VAR_NSPPID, SS}), static_cast<uint64_t>(getppid()));
	EXPECT_EQ(l.fault(), 0u);

	std::string cg2, line, path;
	for (std::ifstream in("/proc/self/mountinfo"); std::getline(in, line);)
		if (line.find(" - cgroup2 ") != std::string::npos) {
			std::istringstream f(line);
			std::string skip;
			f >> skip >> skip >> skip >> skip >> cg2;
			break;
		}
	for (std::ifstream in("/proc/self/cgroup"); std::getline(in, line);)
		if (line.starts_with("0::"))
			path = line.substr(3);
	struct stat st {};
	if (!cg2.empty() && stat((cg2 + path).c_str(), &st) == 0) {
		EXPECT_EQ(l.run("t_builtin", {DIF_VAR_CGROUP, SS}), st.st_ino);
	}

	// unshare(CLONE_NEWPID) puts a process's next child in the new
	// namespace, for good: done in a child of ours, whose child runs there.
	int p[2];
	ASSERT_EQ(pipe(p), 0);
	pid_t c = fork();
	if (c == 0) {
		if (unshare(CLONE_NEWPID) != 0)
			_exit(2);
		pid_t g = fork(); // the new namespace's first process
		if (g == 0) {
			uint64_t v[4] = {l.run("t_builtin", {DIF_VAR_NSPID, SS}),
					 l.run("t_builtin", {DIF_VAR_NSTID, SS}),
					 l.run("t_builtin", {DIF_VAR_NSPPID, SS}),
					 l.run("t_builtin", {DIF_VAR_PID, SS})};
			_exit(write(p[1], v, sizeof(v)) == sizeof(v) && l.fault() == 0 ? 0 : 1);
		}
		int gs = 0;
		uint64_t host = static_cast<uint64_t>(g);
		if (g < 0 || waitpid(g, &gs, 0) != g || write(p[1], &host, 8) != 8)
			_exit(1);
		_exit(WIFEXITED(gs) ? WEXITSTATUS(gs) : 1);
	}
	ASSERT_GT(c, 0);
	close(p[1]);
	uint64_t v[5] = {};
	ssize_t n = 0, k;
	while (n < static_cast<ssize_t>(sizeof(v)) &&
	       (k = read(p[0], reinterpret_cast<char *>(v) + n, sizeof(v) - n)) > 0)
		n += k;
	close(p[0]);
	int ws = 0;
	waitpid(c, &ws, 0);
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 2)
		GTEST_SKIP() << "unshare(CLONE_NEWPID) is refused here";
	ASSERT_EQ(n, static_cast<ssize_t>(sizeof(v)));
	EXPECT_TRUE(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	EXPECT_EQ(v[0], 1u);
	EXPECT_EQ(v[1], 1u);
	EXPECT_EQ(v[2], 0u);
	EXPECT_EQ(v[3], v[4]); // pid: the host's number
	EXPECT_NE(v[3], 1u);
}

TEST(BpfLibMore, PerfArgsOnARealPerfEvent)
{
	NEED_LIB();
	auto &l = L();
	bpf_program *p = bpf_object__find_program_by_name(l.obj, "t_perf_args");
	ASSERT_NE(p, nullptr);
	// Clear the per-CPU counters and samples (regs[2..4]) of every CPU.
	int ncpu = libbpf_num_possible_cpus();
	std::vector<uint8_t> zero(sizeof(dt_bpf_mem));
	for (uint32_t k = 0; k < static_cast<uint32_t>(ncpu); k++) {
		std::vector<uint8_t> v(sizeof(dt_bpf_mem));
		if (bpf_map_lookup_elem(l.mem_fd, &k, v.data()) == 0) {
			auto *m = reinterpret_cast<dt_bpf_mem *>(v.data());
			m->regs[2] = m->regs[3] = m->regs[4] = 0;
			bpf_map_update_elem(l.mem_fd, &k, v.data(), 0);
		}
	}
	perf_event_attr a{};
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 100000; // every 100 us of this thread's CPU time
	int fd = static_cast<int>(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
	if (fd < 0)
		GTEST_SKIP() << "perf_event_open: " << strerror(errno);
	bpf_link *link = bpf_program__attach_perf_event(p, fd);
	ASSERT_NE(link, nullptr);
	volatile uint64_t spin = 0;
	uint64_t end = now_ns(CLOCK_MONOTONIC) + 100000000;
	while (now_ns(CLOCK_MONOTONIC) < end)
		spin = spin + 1;
	bpf_link__destroy(link);
	close(fd);
	uint64_t samples = 0, user = 0, kernel = 0;
	for (uint32_t k = 0; k < static_cast<uint32_t>(ncpu); k++) {
		std::vector<uint8_t> v(sizeof(dt_bpf_mem));
		if (bpf_map_lookup_elem(l.mem_fd, &k, v.data()))
			continue;
		auto *m = reinterpret_cast<const dt_bpf_mem *>(v.data());
		if (!m->regs[4])
			continue;
		samples += m->regs[4];
		// The last sample: exactly one of arg0 (kernel pc), arg1 (user pc).
		EXPECT_TRUE((m->regs[2] == 0) != (m->regs[3] == 0))
			<< std::hex << m->regs[2] << " " << m->regs[3];
		if (m->regs[2]) {
			EXPECT_TRUE(is_kernel_addr(m->regs[2])) << std::hex << m->regs[2];
			kernel++;
		} else {
			EXPECT_TRUE(in_exec_mapping(m->regs[3])) << std::hex << m->regs[3];
			user++;
		}
	}
	EXPECT_GT(samples, 10u);
	EXPECT_GT(user + kernel, 0u);
}

} // namespace
