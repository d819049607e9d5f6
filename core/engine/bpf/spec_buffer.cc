// SPDX-License-Identifier: MIT
// Speculations, the consumer's side (see spec_buffer.hpp).
#include "spec_buffer.hpp"

#include <dtrace/engine.hpp>

#include <bpf/bpf.h>

extern "C" {
#include "abi/dt_bpf_abi.h"
}

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>

namespace dt::engines::bpf {

bool uses_speculations(const program &p)
{
	auto calls = [](const difo &d) {
		for (dif_instr_t in : d.text)
			if (DIF_INSTR_OP(in) == DIF_OP_CALL &&
			    DIF_INSTR_SUBR(in) == DIF_SUBR_SPECULATION)
				return true;
		return false;
	};
	for (const clause &c : p.clauses) {
		if (c.predicate && calls(*c.predicate))
			return true;
		for (const action &a : c.actions) {
			if (a.kind == DTRACEACT_SPECULATE || a.kind == DTRACEACT_COMMIT ||
			    a.kind == DTRACEACT_DISCARD)
				return true;
			for (const record &r : a.args)
				if (calls(r.expr))
					return true;
			for (const record &r : a.keys)
				if (calls(r.expr))
					return true;
		}
	}
	return false;
}

unique_fd create_spec_map(uint32_t nspec, bool used)
{
	if (!used)
		nspec = std::min<uint32_t>(nspec, DT_BPF_NSPEC_MAX);
	if (nspec > DT_BPF_NSPEC_MAX)
		throw engine_error("bpf engine: nspec " + std::to_string(nspec) +
				   " is above the largest the bpf engine supports (" +
				   std::to_string(DT_BPF_NSPEC_MAX) + ")");
	LIBBPF_OPTS(bpf_map_create_opts, o);
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, DT_BPF_MAP_SPEC, sizeof(uint32_t),
				sizeof(dt_bpf_spec), nspec + 1, &o);
	if (fd < 0)
		throw engine_error("bpf engine: cannot create map " DT_BPF_MAP_SPEC ": " +
				   errno_text(errno));
	unique_fd f(fd);
	dt_bpf_spec hdr{};
	hdr.state = nspec;
	uint32_t zero = 0;
	if (bpf_map_update_elem(f.get(), &zero, &hdr, BPF_ANY) != 0)
		throw engine_error("bpf engine: cannot set " DT_BPF_MAP_SPEC ": " +
				   errno_text(errno));
	return f;
}

uint64_t spec_unavailable(int spec_fd)
{
	dt_bpf_spec hdr{};
	uint32_t zero = 0;
	if (spec_fd < 0 || bpf_map_lookup_elem(spec_fd, &zero, &hdr) != 0)
		return 0;
	return hdr.unavail;
}

void spec_buffer::firing(uint32_t id, uint32_t gen, firing_bytes f, std::vector<firing_bytes> &out)
{
	if (auto e = ended_.find(id); e != ended_.end()) {
		for (auto [g, commit] : e->second)
			if (g == gen) {
				if (commit)
					out.push_back(std::move(f));
				return;
			}
	}
	auto [it, fresh] = held_.try_emplace(key(id, gen));
	holding &h = it->second;
	if (fresh) {
		h.seq = seq_++;
		// Bound what waits per id: give the oldest generation up.
		size_t n = 0;
		auto oldest = held_.end();
		for (auto i = held_.lower_bound(key(id, 0));
		     i != held_.end() && (i->first >> 32) == id; ++i) {
			n++;
			if (oldest == held_.end() || i->second.seq < oldest->second.seq)
				oldest = i;
		}
		if (n > k_max_gens && oldest != it)
			held_.erase(oldest);
	}
	uint64_t &used = h.used[f.cpu];
	if (used + f.bytes.size() > specsize_) {
		drops_[f.cpu]++;
		return;
	}
	used += f.bytes.size();
	h.firings.push_back(std::move(f));
}

void spec_buffer::end(uint32_t id, uint32_t gen, bool commit, std::vector<firing_bytes> &out)
{
	std::deque<std::pair<uint32_t, bool>> &e = ended_[id];
	e.emplace_back(gen, commit);
	while (e.size() > k_max_gens)
		e.pop_front();
	auto it = held_.find(key(id, gen));
	if (it == held_.end())
		return;
	if (commit)
		for (firing_bytes &f : it->second.firings)
			out.push_back(std::move(f));
	held_.erase(it);
}

std::map<uint32_t, uint64_t> spec_buffer::take_drops()
{
	return std::exchange(drops_, {});
}

} // namespace dt::engines::bpf
