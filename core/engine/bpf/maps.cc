// SPDX-License-Identifier: MIT
// Creating and filling the bpf engine's maps (see maps.hpp).
#include "maps.hpp"

#include "util/kernel_btf.hpp"
#include "util/mutex_layout.hpp"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <time.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

namespace dt::engines::bpf {
namespace {

unique_fd make_map(enum bpf_map_type type, const std::string &name, uint32_t key_size,
		   uint32_t value_size, uint32_t entries, uint32_t flags = 0)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = flags);
	int fd = bpf_map_create(type, name.c_str(), key_size, value_size, entries, &o);
	if (fd < 0) {
		int err = errno;
		if (err == EPERM)
			throw privilege_error(k_privilege_message);
		throw engine_error("bpf engine: cannot create map " + name + " (key " +
				   std::to_string(key_size) + ", value " +
				   std::to_string(value_size) + ", " + std::to_string(entries) +
				   " entries): " + errno_text(err));
	}
	return unique_fd(fd);
}

void update(int fd, const void *key, const void *value, const char *what)
{
	if (bpf_map_update_elem(fd, key, value, BPF_ANY) != 0)
		throw engine_error(std::string("bpf engine: cannot set ") + what + ": " +
				   errno_text(errno));
}

void copy_name(char *dst, size_t size, const std::string &s)
{
	size_t n = std::min(size - 1, s.size());
	std::memcpy(dst, s.data(), n);
	dst[n] = '\0';
}

// Byte offset of member `name` in struct or union type `id`, looking
// into anonymous struct and union members (struct dentry's d_name is in
// one since Linux 6.8), or -1.
int64_t btf_member_in(const kernel_btf &b, uint32_t id, const char *name, int depth = 0)
{
	const struct btf_type *t = b.type(id);
	if (t == nullptr || (!btf_is_struct(t) && !btf_is_union(t)) || depth > 4)
		return -1;
	const struct btf_member *mem = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++) {
		auto bit = btf_member_bit_offset(t, static_cast<uint32_t>(i));
		if (mem[i].name_off != 0) {
			if (std::strcmp(b.name(mem[i].name_off), name) == 0)
				return bit / 8;
			continue;
		}
		int64_t at = btf_member_in(b, mem[i].type, name, depth + 1);
		if (at >= 0)
			return bit / 8 + at;
	}
	return -1;
}

// Byte offset of member `name` of struct `sname` (vmlinux BTF), or -1 when
// either is missing (0 is a member's offset here).
int64_t btf_member_at(const kernel_btf &b, const char *sname, const char *name)
{
	int id = b.find(sname, BTF_KIND_STRUCT);
	return id < 0 ? -1 : btf_member_in(b, static_cast<uint32_t>(id), name);
}

// sizeof(struct `sname`) (vmlinux BTF), or 0.
uint32_t btf_struct_size(const kernel_btf &b, const char *sname)
{
	int id = b.find(sname, BTF_KIND_STRUCT);
	return id < 0 ? 0 : b.type(static_cast<uint32_t>(id))->size;
}

// The offsets nspid, nstid and nsppid walk (dt_bpf_abi.h); all or none.
void init_pidns_offsets(const kernel_btf &b, dt_bpf_status &st)
{
	uint32_t thread_pid = btf_member_offset(b, "task_struct", "thread_pid");
	uint32_t leader = btf_member_offset(b, "task_struct", "group_leader");
	uint32_t numbers = btf_member_offset(b, "pid", "numbers");
	uint32_t upid = btf_struct_size(b, "upid");
	uint32_t ns = btf_member_offset(b, "upid", "ns");
	if (!thread_pid || !leader || !numbers || !upid || !ns)
		return;
	st.task_thread_pid = thread_pid;
	st.task_group_leader = leader;
	st.pid_level = btf_member_offset(b, "pid", "level"); // after count: not 0
	st.pid_numbers = numbers;
	st.upid_size = upid;
	st.upid_nr = btf_member_offset(b, "upid", "nr"); // the first member: 0
	st.upid_ns = ns;
}

// What d_path() walks (dt_bpf_abi.h dt_bpf_dpath_offsets, fs/d_path.c);
// all or none (dp_ok).
void init_dpath_offsets(const kernel_btf &b, dt_bpf_status &st)
{
	struct member {
		uint32_t *dst;
		const char *sname, *name;
	};
	dt_bpf_status::dt_bpf_dpath_offsets o{};
	int64_t d_name = btf_member_at(b, "dentry", "d_name");
	int64_t qstr_name = btf_member_at(b, "qstr", "name");
	int64_t d_hash = btf_member_at(b, "dentry", "d_hash");
	int64_t pprev = btf_member_at(b, "hlist_bl_node", "pprev");
	if (d_name < 0 || qstr_name < 0 || d_hash < 0 || pprev < 0)
		return;
	o.d_name = static_cast<uint32_t>(d_name + qstr_name);
	o.d_hash_pprev = static_cast<uint32_t>(d_hash + pprev);
	const member members[] = {
		{&o.path_mnt, "path", "mnt"},
		{&o.path_dentry, "path", "dentry"},
		{&o.d_parent, "dentry", "d_parent"},
		{&o.d_op, "dentry", "d_op"},
		{&o.d_inode, "dentry", "d_inode"},
		{&o.d_sb, "dentry", "d_sb"},
		{&o.d_dname, "dentry_operations", "d_dname"},
		{&o.i_ino, "inode", "i_ino"},
		{&o.s_magic, "super_block", "s_magic"},
		{&o.s_type, "super_block", "s_type"},
		{&o.fst_name, "file_system_type", "name"},
		{&o.mnt_parent, "mount", "mnt_parent"},
		{&o.mnt_mountpoint, "mount", "mnt_mountpoint"},
		{&o.mnt_mnt, "mount", "mnt"},
		{&o.mnt_root, "vfsmount", "mnt_root"},
		{&o.task_fs, "task_struct", "fs"},
		{&o.fs_root, "fs_struct", "root"},
	};
	for (const member &mb : members) {
		int64_t at = btf_member_at(b, mb.sname, mb.name);
		if (at < 0)
			return;
		*mb.dst = static_cast<uint32_t>(at);
	}
	o.dp_ok = 1;
	st.dpath = o;
}

// dt_status before BEGIN (dt_bpf_abi.h): INACTIVE, the wall clock's
// offset from CLOCK_BOOTTIME, and the task_struct offsets the library's
// built-ins need, and struct mutex's owner word for mutex_*() (0 when the
// kernel has no BTF: they then fault); d_path()'s offsets only for a program
// that calls it.
void init_status(const engine_maps &m, bool d_path)
{
	dt_bpf_status st{};
	st.activity = DT_BPF_INACTIVE;
	if (const kernel_btf *b = kernel_btf::open(kernel_btf::k_vmlinux)) {
		st.task_real_parent = btf_member_offset(*b, "task_struct", "real_parent");
		st.task_tgid = btf_member_offset(*b, "task_struct", "tgid");
		uint32_t se = btf_member_offset(*b, "task_struct", "se");
		uint32_t sum = btf_member_offset(*b, "sched_entity", "sum_exec_runtime");
		st.task_sum_exec = se && sum ? se + sum : 0;
		init_pidns_offsets(*b, st);
		if (d_path)
			init_dpath_offsets(*b, st);
	}
	const mutex_layout mutex = kernel_mutex_layout();
	st.mutex_owner = mutex.owner;
	st.mutex_owner_mask = mutex.owner_mask;
	struct timespec rt {
	}, bt{};
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	st.wall_offset = (static_cast<int64_t>(rt.tv_sec) - bt.tv_sec) * 1'000'000'000LL +
			 (static_cast<int64_t>(rt.tv_nsec) - bt.tv_nsec);
	uint32_t zero = 0;
	update(m.status.get(), &zero, &st, "the status map");
}

} // namespace

// Byte offset of member `name` in struct `sname` (vmlinux BTF), or 0.
uint32_t btf_member_offset(const kernel_btf &b, const char *sname, const char *name)
{
	return static_cast<uint32_t>(std::max<int64_t>(btf_member_at(b, sname, name), 0));
}

map_fds engine_maps::fds() const
{
	map_fds f;
	f.mem = mem.get();
	f.status = status.get();
	f.cpustate = cpustate.get();
	f.ring = ring.get();
	f.probes = probes.get();
	f.strtab = strtab.get();
	f.globals = globals.get();
	f.tls = tls.get();
	f.dvars = dvars.get();
	f.aggs = aggs;
	f.agg_gen = agg_gen.get();
	f.spec = spec.get();
	return f;
}

uint64_t ring_size(uint64_t bufsize)
{
	auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
	uint64_t n = std::max<uint64_t>(bufsize, page);
	uint64_t p = 1;
	while (p < n && p < (uint64_t{1} << 31))
		p <<= 1;
	return p;
}

engine_maps create_maps(const layout &l, uint32_t nepids, uint64_t ring_bytes)
{
	engine_maps m;
	int n = libbpf_num_possible_cpus();
	if (n <= 0)
		throw engine_error("bpf engine: cannot count the CPUs: " + errno_text(n));
	m.ncpus = static_cast<uint32_t>(n);
	const uint32_t k4 = sizeof(uint32_t);

	// The status map first: a kernel that refuses bpf() says so here.
	m.status = make_map(BPF_MAP_TYPE_ARRAY, DT_BPF_MAP_STATUS, k4, sizeof(dt_bpf_status), 1);
	m.mem = make_map(BPF_MAP_TYPE_ARRAY, DT_BPF_MAP_MEM, k4, sizeof(dt_bpf_mem), m.ncpus);
	m.cpustate = make_map(BPF_MAP_TYPE_PERCPU_ARRAY, DT_BPF_MAP_CPUSTATE, k4,
			      sizeof(dt_bpf_cpustate), 1);
	m.ring = make_map(BPF_MAP_TYPE_RINGBUF, DT_BPF_MAP_RING, 0, 0,
			  static_cast<uint32_t>(ring_bytes));
	m.probes = make_map(BPF_MAP_TYPE_ARRAY, DT_BPF_MAP_PROBES, k4, sizeof(dt_bpf_probe),
			    nepids + 1);
	if (l.strtab.size() > DT_BPF_STRTAB_SIZE)
		throw engine_error("bpf engine: the program's strings take " +
				   std::to_string(l.strtab.size()) + " bytes, more than " +
				   std::to_string(DT_BPF_STRTAB_SIZE));
	m.strtab = make_map(BPF_MAP_TYPE_ARRAY, DT_BPF_MAP_STRTAB, k4, DT_BPF_STRTAB_SIZE, 1);
	// Always DT_BPF_GLOBALS_MAX bytes: the library's stores and copies
	// through a tagged address are bounded by that (lib/mem.bpf.c), and
	// the verifier checks them against the map's value size.
	if (l.globals_size > DT_BPF_GLOBALS_MAX)
		throw engine_error("bpf engine: the program's global variables take " +
				   std::to_string(l.globals_size) + " bytes, more than " +
				   std::to_string(DT_BPF_GLOBALS_MAX));
	m.globals = make_map(BPF_MAP_TYPE_ARRAY, DT_BPF_MAP_GLOBALS, k4, DT_BPF_GLOBALS_MAX, 1);
	m.tls = make_map(BPF_MAP_TYPE_HASH, DT_BPF_MAP_TLS, sizeof(dt_bpf_dvar_key),
			 std::max<uint32_t>(l.tls_value_size, 8),
			 std::max<uint32_t>(l.tls_entries, 1), BPF_F_NO_PREALLOC);
	m.dvars = make_map(BPF_MAP_TYPE_HASH, DT_BPF_MAP_DVARS,
			   std::max<uint32_t>(l.dvar_key_size, sizeof(dt_bpf_dvar_key)),
			   std::max<uint32_t>(l.dvar_value_size, 8),
			   std::max<uint32_t>(l.dvar_entries, 1), BPF_F_NO_PREALLOC);
	// Not preallocated: an element the consumer deletes at a drain is
	// freed after an RCU grace period, never reused under a program that
	// is still updating it.
	std::map<std::pair<uint32_t, uint32_t>, size_t> shared; // (key, value) -> store
	for (size_t i = 0; i < l.aggs.size(); i++) {
		const layout::agg_map &a = l.aggs[i];
		uint32_t ks = std::max<uint32_t>(a.key_size, 1);
		uint32_t vs = std::max<uint32_t>(a.value_size, 8);
		auto aggid = static_cast<uint32_t>(i + 1);
		if (l.agg_key_prefixed) {
			auto [it, fresh] = shared.try_emplace({ks, vs}, m.agg_stores.size());
			if (!fresh) {
				m.agg_stores[it->second].aggids.push_back(aggid);
				continue;
			}
		}
		engine_maps::agg_store st;
		st.key_size = ks;
		st.value_size = vs;
		st.prefixed = l.agg_key_prefixed;
		st.aggids.push_back(aggid);
		m.agg_stores.push_back(std::move(st));
	}
	// Stores of up to a few thousand entries (keyless aggregations, and
	// the quantizations of the default aggsize: 4096 entries) are
	// preallocated, as DTrace preallocates its aggregation buffer.
	// Run-time allocated elements come from a per-CPU cache that the
	// kernel refills asynchronously (bpf_mem_alloc): a firing that creates
	// many keys at once -- a hundred clauses with a quantize() each --
	// finds it empty after a few dozen and drops the rest, on 6.1 always
	// and on 6.18 when the machine is busy. Preallocating 8192 entries
	// costs about 10 ms at startup (174762 count() entries would cost
	// 200 ms), so larger stores stay run-time allocated: no cost until
	// used, and drops are counted and reported.
	constexpr uint64_t k_agg_prealloc_entries = 8192, k_agg_prealloc_bytes = 16 << 20;
	for (engine_maps::agg_store &st : m.agg_stores) {
		uint64_t entries = 0;
		// (At least 2: while a snapshot waits, a keyless aggregation
		// has its key of the old generation and of the new; aggs.hpp.)
		for (uint32_t id : st.aggids)
			entries += std::max<uint32_t>(l.aggs[id - 1].entries, 2);
		entries = std::min<uint64_t>(entries, 1U << 24);
		uint64_t bytes = entries * (st.key_size + uint64_t{st.value_size} *
								  std::max<uint32_t>(m.ncpus, 1));
		st.fd = make_map(BPF_MAP_TYPE_PERCPU_HASH, "dt_agg_" + std::to_string(st.aggids[0]),
				 st.key_size, st.value_size, static_cast<uint32_t>(entries),
				 entries <= k_agg_prealloc_entries && bytes <= k_agg_prealloc_bytes
					 ? 0
					 : BPF_F_NO_PREALLOC);
	}
	if (!m.agg_stores.empty())
		m.agg_gen = make_map(BPF_MAP_TYPE_ARRAY, DT_BPF_MAP_AGGEN, k4, k4, 1);
	m.aggs.assign(l.aggs.size(), -1);
	for (const engine_maps::agg_store &st : m.agg_stores)
		for (uint32_t id : st.aggids)
			m.aggs[id - 1] = st.fd.get();

	uint32_t zero = 0;
	std::vector<uint8_t> strtab(DT_BPF_STRTAB_SIZE, 0);
	std::memcpy(strtab.data(), l.strtab.data(), l.strtab.size());
	update(m.strtab.get(), &zero, strtab.data(), "the string table");
	init_status(m, l.d_path);
	return m;
}

int create_epid_table(engine_maps &m, uint32_t entries)
{
	std::string name = "dt_epids_" + std::to_string(m.epid_tables.size() + 1);
	m.epid_tables.push_back(make_map(BPF_MAP_TYPE_ARRAY, name, sizeof(uint32_t),
					 sizeof(uint32_t), std::max<uint32_t>(entries, 1)));
	return m.epid_tables.back().get();
}

void set_epid(int table_fd, uint32_t filter, uint32_t epid)
{
	update(table_fd, &filter, &epid, "an EPID table entry");
}

void set_probe(const engine_maps &m, uint32_t epid, const enabled_probe &ep)
{
	dt_bpf_probe p{};
	copy_name(p.prov, sizeof(p.prov), ep.probe.provider);
	copy_name(p.mod, sizeof(p.mod), ep.probe.mod);
	copy_name(p.func, sizeof(p.func), ep.probe.func);
	copy_name(p.name, sizeof(p.name), ep.probe.name);
	p.id = ep.probe_id;
	update(m.probes.get(), &epid, &p, "a probe description");
}

namespace {

// The one status entry (dt_bpf_status), as the programs see it.
dt_bpf_status read_status(const engine_maps &m)
{
	uint32_t zero = 0;
	dt_bpf_status s{};
	if (bpf_map_lookup_elem(m.status.get(), &zero, &s) != 0)
		throw engine_error("bpf engine: cannot read the status map: " + errno_text(errno));
	return s;
}

// Change one field of the status entry (`what` names it in an error).
template <typename F>
void change_status(const engine_maps &m, F set, const char *what)
{
	uint32_t zero = 0;
	dt_bpf_status s = read_status(m);
	set(s);
	update(m.status.get(), &zero, &s, what);
}

} // namespace

uint64_t activity(const engine_maps &m)
{
	return read_status(m).activity;
}

void set_maxframes(const engine_maps &m, uint32_t n)
{
	change_status(
		m, [n](dt_bpf_status &s) { s.maxframes = n; }, "the maxframes option");
}

void set_activity(const engine_maps &m, uint64_t a)
{
	change_status(
		m, [a](dt_bpf_status &s) { s.activity = a; }, "the activity state");
}

std::vector<dt_bpf_cpustate> cpustates(const engine_maps &m)
{
	static_assert(sizeof(dt_bpf_cpustate) % 8 == 0, "per-CPU values are 8-aligned");
	std::vector<dt_bpf_cpustate> v(m.ncpus);
	uint32_t zero = 0;
	if (bpf_map_lookup_elem(m.cpustate.get(), &zero, v.data()) != 0)
		throw engine_error("bpf engine: cannot read the drop counters: " +
				   errno_text(errno));
	return v;
}

} // namespace dt::engines::bpf
