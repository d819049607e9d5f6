// SPDX-License-Identifier: MIT
// Exact aggregation snapshots -> consumer deltas (see aggs.hpp).
#include "aggs.hpp"

#include "fd.hpp"

#include <bpf/bpf.h>

extern "C" {
#include "abi/dt_bpf_abi.h"
#include "dif_agg.h" // the aggregation arithmetic (identity, merge)
}

#include <cerrno>
#include <cstring>

namespace dt::engines::bpf {

std::vector<int64_t> fold_percpu(const aggregation &a, std::span<const uint8_t> vals,
				 uint32_t ncpus, uint32_t stride)
{
	// min/max: stored XOR-ed with their identity (dt_bpf_abi.h).
	static_assert(DT_BPF_AGG_MIN_BIAS == static_cast<uint64_t>(DIF_AGG_INT64_MAX));
	static_assert(DT_BPF_AGG_MAX_BIAS == static_cast<uint64_t>(DIF_AGG_INT64_MIN));
	std::vector<int64_t> out(a.nwords != 0
					 ? a.nwords
					 : dif_agg_nwords(a.func, a.params.data(),
							  static_cast<uint32_t>(a.params.size())));
	const auto nwords = static_cast<uint32_t>(out.size());
	dif_agg_init(a.func, out.data(), nwords);
	std::vector<int64_t> one(out.size(), 0);
	for (uint32_t c = 0; c < ncpus; c++) {
		size_t base = size_t{c} * stride;
		if (base >= vals.size())
			break;
		size_t n = std::min<size_t>(one.size() * 8,
					    std::min<size_t>(stride, vals.size() - base));
		std::fill(one.begin(), one.end(), 0);
		std::memcpy(one.data(), vals.data() + base, n);
		if (a.func == DTRACEAGG_MIN || a.func == DTRACEAGG_MAX) {
			if (one.empty() || one[0] == 0)
				continue; // this CPU has no value for the key
			uint64_t bias = static_cast<uint64_t>(dif_agg_identity(a.func));
			one[0] = static_cast<int64_t>(static_cast<uint64_t>(one[0]) ^ bias);
		}
		dif_agg_merge(a.func, out.data(), one.data(), nwords);
	}
	return out;
}

uint32_t drain_aggregation(const agg_map_view &m, const std::vector<aggregation> &aggs,
			   uint32_t ncpus, engine_sink &sink, std::optional<uint32_t> keep)
{
	uint32_t stride = (m.value_size + 7) & ~7U;
	// The keys first: deleting while walking would restart the walk. No
	// key of an older generation can appear or go meanwhile (programs
	// write only `keep`'s), so the walk sees each of them once.
	std::vector<std::vector<uint8_t>> keys;
	std::vector<uint8_t> cur(m.key_size), next(m.key_size);
	const void *prev = nullptr;
	while (bpf_map_get_next_key(m.fd, prev, next.data()) == 0) {
		uint32_t gen = 0;
		if (next.size() >= 8)
			std::memcpy(&gen, next.data() + 4, sizeof(gen));
		if (!keep || gen != *keep)
			keys.push_back(next);
		cur = next;
		prev = cur.data();
	}
	if (errno != ENOENT)
		throw engine_error("bpf engine: cannot read an aggregation map: " +
				   errno_text(errno));

	std::vector<uint8_t> vals(size_t{ncpus} * stride);
	uint32_t n = 0;
	for (const std::vector<uint8_t> &k : keys) {
		if (bpf_map_lookup_and_delete_elem(m.fd, k.data(), vals.data()) != 0) {
			if (errno == ENOENT)
				continue;
			// Kernels before 5.14: no lookup-and-delete on hash
			// maps (no program writes this key any more).
			if (bpf_map_lookup_elem(m.fd, k.data(), vals.data()) != 0)
				continue;
			(void)bpf_map_delete_elem(m.fd, k.data());
		}
		if (k.size() < 8)
			continue;
		uint32_t aggid = 0;
		std::memcpy(&aggid, k.data(), sizeof(aggid));
		if (aggid == 0 || aggid > aggs.size())
			continue;
		const aggregation &a = aggs[aggid - 1];
		agg_data d;
		d.aggid = aggid;
		size_t end = std::min<size_t>(8 + a.key_size, k.size());
		d.key.assign(k.begin() + 8, k.begin() + static_cast<ptrdiff_t>(end));
		d.key.resize(a.key_size, 0);
		d.value = fold_percpu(a, vals, ncpus, stride);
		sink.aggregation(d);
		n++;
	}
	return n;
}

bool has_keys(int fd, uint32_t key_size)
{
	std::vector<uint8_t> k(key_size);
	if (bpf_map_get_next_key(fd, nullptr, k.data()) == 0)
		return true;
	if (errno != ENOENT)
		throw engine_error("bpf engine: cannot read an aggregation map: " +
				   errno_text(errno));
	return false;
}

void set_generation(int aggen_fd, uint32_t gen)
{
	uint32_t zero = 0;
	if (bpf_map_update_elem(aggen_fd, &zero, &gen, BPF_ANY) != 0)
		throw engine_error("bpf engine: cannot switch the aggregations' generation: " +
				   errno_text(errno));
}

void program_barrier::wait()
{
	if (!outer_) {
		LIBBPF_OPTS(bpf_map_create_opts, o);
		int in = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_barrier", 4, 4, 1, &o);
		if (in < 0)
			throw engine_error("bpf engine: cannot create map dt_barrier: " +
					   errno_text(errno));
		inner_ = unique_fd(in);
		o.inner_map_fd = static_cast<uint32_t>(in);
		int out = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "dt_barrier", 4, 4, 1, &o);
		if (out < 0)
			throw engine_error("bpf engine: cannot create map dt_barrier (an array "
					   "of maps): " +
					   errno_text(errno));
		outer_ = unique_fd(out);
	}
	uint32_t zero = 0;
	int in = inner_.get();
	if (bpf_map_update_elem(outer_.get(), &zero, &in, BPF_ANY) != 0)
		throw engine_error("bpf engine: cannot wait for the programs to leave an "
				   "aggregation generation: " +
				   errno_text(errno));
}

} // namespace dt::engines::bpf
