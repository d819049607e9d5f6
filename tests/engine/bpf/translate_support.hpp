// SPDX-License-Identifier: MIT
//
// translate_support.hpp - for the translator's tests: a harness that plans,
// creates the engine's maps (the runtime's maps.cc), translates one
// program as a raw tracepoint program, loads it, runs it with
// bpf_prog_test_run (in this task: bpf_get_current_pid_tgid and user
// reads see this process) and reads back what it produced: ring samples,
// aggregation maps (per-CPU values merged), globals.
#pragma once

#include "maps.hpp"
#include "translate.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace dt::test::bpft {

using namespace dt::engines::bpf;

// Why the kernel refuses bpf() here, or "" if it works.
inline std::string bpf_unusable()
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_probe", 4, 8, 1, &o);
	if (fd < 0)
		return std::string("bpf() refused: ") + std::strerror(errno);
	close(fd);
	return "";
}

struct harness {
	program prog;
	plan_options opts;
	layout lay;
	engine_maps maps;
	translated tr;
	int prog_fd = -1, btf_fd = -1;
	std::string error; // translate_error or the explained verifier error
	std::string log;   // the verifier log (for test diagnostics only)
	uint32_t nepids = 8;

	harness() = default;
	harness(const harness &) = delete;
	harness &operator=(const harness &) = delete;
	~harness()
	{
		if (prog_fd >= 0)
			close(prog_fd);
		if (btf_fd >= 0)
			close(btf_fd);
	}

	// One clause per ECB (EPID = clause index + 1) unless given.
	[[nodiscard]] probe_spec spec_all(gate g = gate::begin, uint32_t nargs = 10) const
	{
		probe_spec s;
		s.ctx = ctx_kind::raw_tp;
		s.when = g;
		s.raw_nargs = nargs;
		for (uint32_t i = 0; i < prog.clauses.size(); i++)
			s.ecbs.push_back({i, i + 1, -1, 0});
		return s;
	}

	// Plan, create the maps, translate and load; false with error set.
	bool build(const probe_spec &spec) { return prepare() && finish(spec); }

	// Plan and create the maps (then e.g. EPID tables), ...
	bool prepare()
	{
		try {
			lay = plan(prog, opts);
			maps = create_maps(lay, nepids, 1 << 20);
			std::vector<uint8_t> st(DT_BPF_STRTAB_SIZE, 0);
			std::memcpy(st.data(), lay.strtab.data(), lay.strtab.size());
			uint32_t zero = 0;
			if (bpf_map_update_elem(maps.strtab.get(), &zero, st.data(), BPF_ANY) !=
			    0) {
				error = "strtab update failed";
				return false;
			}
		} catch (const std::exception &e) {
			error = e.what();
			return false;
		}
		return true;
	}

	// ... translate and load as type.
	bool finish(const probe_spec &spec, enum bpf_prog_type type = BPF_PROG_TYPE_RAW_TRACEPOINT)
	{
		try {
			tr = translate(prog, lay, spec, maps.fds());
		} catch (const std::exception &e) {
			error = e.what();
			return false;
		}
		return load(type);
	}

	bool load(enum bpf_prog_type type = BPF_PROG_TYPE_RAW_TRACEPOINT)
	{
		if (!tr.btf.empty()) {
			btf_fd = bpf_btf_load(tr.btf.data(), tr.btf.size(), nullptr);
			if (btf_fd < 0) {
				error = std::string("BTF load failed: ") + std::strerror(errno);
				return false;
			}
		}
		auto attempt = [&](char *buf, size_t size) {
			LIBBPF_OPTS(bpf_prog_load_opts, o);
			if (buf != nullptr) {
				o.log_buf = buf;
				o.log_size = static_cast<uint32_t>(size);
				o.log_level = 1;
			}
			if (btf_fd >= 0) {
				o.prog_btf_fd = static_cast<uint32_t>(btf_fd);
				o.func_info = tr.func_info.data();
				o.func_info_cnt = static_cast<uint32_t>(tr.func_info.size());
				o.func_info_rec_size = sizeof(struct bpf_func_info);
			}
			return bpf_prog_load(type, "dt_test", "Dual MIT/GPL", tr.insns.data(),
					     tr.insns.size(), &o);
		};
		prog_fd = attempt(nullptr, 0);
		if (prog_fd >= 0)
			return true;
		int err = errno;
		std::vector<char> buf(64 << 20, 0);
		int fd = attempt(buf.data(), buf.size());
		if (fd >= 0) { // loads with a log: should not happen
			prog_fd = fd;
			return true;
		}
		log.assign(buf.data());
		error = log.empty() ? std::string("bpf_prog_load: ") + std::strerror(err)
				    : explain_verifier(prog, tr, log);
		return false;
	}

	// The tail of the verifier log, for failure messages.
	[[nodiscard]] std::string log_tail(size_t n = 3000) const
	{
		return log.size() > n ? log.substr(log.size() - n) : log;
	}

	// Run once with these raw tracepoint arguments; the program's return.
	bool run(const std::array<uint64_t, 10> &args, uint32_t nargs = 10)
	{
		LIBBPF_OPTS(bpf_test_run_opts, t);
		t.ctx_in = args.data();
		t.ctx_size_in = 8 * nargs;
		return bpf_prog_test_run_opts(prog_fd, &t) == 0;
	}

	void set_activity(uint64_t a) { engines::bpf::set_activity(maps, a); }

	// Every sample in the ring (consumed).
	std::vector<std::vector<uint8_t>> samples()
	{
		std::vector<std::vector<uint8_t>> out;
		auto cb = [](void *ctx, void *data, size_t size) -> int {
			auto *v = static_cast<std::vector<std::vector<uint8_t>> *>(ctx);
			auto *p = static_cast<uint8_t *>(data);
			v->emplace_back(p, p + size);
			return 0;
		};
		ring_buffer *rb = ring_buffer__new(maps.ring.get(), cb, &out, nullptr);
		if (rb != nullptr) {
			ring_buffer__consume(rb);
			ring_buffer__free(rb);
		}
		return out;
	}

	// Aggregation aggid: key bytes -> each CPU's words.
	std::map<std::vector<uint8_t>, std::vector<std::vector<int64_t>>> agg(uint32_t aggid)
	{
		std::map<std::vector<uint8_t>, std::vector<std::vector<int64_t>>> out;
		const layout::agg_map &m = lay.aggs[aggid - 1];
		int fd = maps.aggs[aggid - 1];
		std::vector<uint8_t> key(m.key_size), next(m.key_size);
		size_t words = m.value_size / 8;
		std::vector<int64_t> vals(words * maps.ncpus);
		bool first = true;
		while (bpf_map_get_next_key(fd, first ? nullptr : key.data(), next.data()) == 0) {
			first = false;
			key = next;
			std::vector<uint8_t> k = key;
			// {aggid, generation}, then the key (no snapshot runs
			// here: every key is of generation 0).
			uint32_t id;
			std::memcpy(&id, key.data(), 4);
			if (id != aggid)
				continue;
			k.erase(k.begin(), k.begin() + 8);
			if (bpf_map_lookup_elem(fd, key.data(), vals.data()) != 0)
				continue;
			auto &per = out[k];
			for (uint32_t c = 0; c < maps.ncpus; c++)
				per.emplace_back(vals.begin() + static_cast<long>(c * words),
						 vals.begin() + static_cast<long>((c + 1) * words));
		}
		return out;
	}

	std::vector<uint8_t> globals()
	{
		// The map's value is DT_BPF_GLOBALS_MAX bytes (maps.cc).
		std::vector<uint8_t> g(DT_BPF_GLOBALS_MAX);
		uint32_t zero = 0;
		bpf_map_lookup_elem(maps.globals.get(), &zero, g.data());
		return g;
	}

	std::vector<dt_bpf_cpustate> cpustate() { return cpustates(maps); }
};

// Per-CPU words summed (count, sum, quantize buckets ...).
inline std::vector<int64_t> summed(const std::vector<std::vector<int64_t>> &per)
{
	std::vector<int64_t> s(per.empty() ? 0 : per[0].size(), 0);
	for (const auto &v : per)
		for (size_t i = 0; i < v.size(); i++)
			s[i] += v[i];
	return s;
}

// A DIF object from instructions and tables.
inline difo make_difo(std::vector<dif_instr_t> text, std::vector<uint64_t> ints = {},
		      std::string strs = {}, std::vector<dtrace_difv_t> vars = {})
{
	difo d;
	d.text = std::move(text);
	d.inttab = std::move(ints);
	d.strtab = std::move(strs);
	d.vartab = std::move(vars);
	d.rtype.dtdt_size = 8;
	return d;
}

// A record of an integer or string value.
inline record make_record(difo d, uint32_t offset, uint32_t size,
			  value_type::kind k = value_type::kind::integer)
{
	record r;
	r.expr = std::move(d);
	r.type.k = k;
	r.type.size = size;
	r.offset = offset;
	r.size = size;
	r.alignment = k == value_type::kind::string ? 1 : size;
	return r;
}

} // namespace dt::test::bpft
