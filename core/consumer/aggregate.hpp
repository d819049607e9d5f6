// SPDX-License-Identifier: MIT
//
// consumer/aggregate.hpp - the consumer's aggregation data (illumos
// dt_aggregate.c): deltas from engines are merged by the aggregating
// function; clear(), trunc(), normalize() and denormalize() act on them;
// walks come back sorted as dtrace(1) prints them.
//
//   merge(agg_data)          fold a delta (count/sum add, min/max compare,
//                            avg/stddev/quantizations add word by word)
//   clear(id)                zero every value, keep the keys
//   trunc(id, n)             keep the n largest (n < 0: the -n smallest)
//   normalize(id, n)         values print divided by n; denormalize resets
//   sorted(ids, opts)        entries by aggregation, then value, then key
//                            (aggsortkey, aggsortrev, aggsortkeypos)
//   joined(ids, opts)        printa(@a, @b): one row per key, missing
//                            values zero (aggsortpos picks the value sorted)
//
// Keys compare as illumos does: integers as unsigned of their size, other
// keys byte by byte. Values compare by function (avg by its mean, the
// quantizations by their weighted sum, then the zero bucket).
#pragma once

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace dt::consumer_impl {

struct agg_entry {
	uint32_t aggid = 0;
	std::vector<uint8_t> key;
	std::vector<int64_t> value;
};

struct sort_opts {
	bool key = false; // aggsortkey
	bool rev = false; // aggsortrev
	int pos = 0;	  // aggsortpos
	int keypos = 0;	  // aggsortkeypos
};

class agg_store {
public:
	explicit agg_store(const program &p);

	void merge(const agg_data &d);
	// Rewrites a key before merging (sym() keys to their function ...).
	std::function<void(const aggregation &, std::vector<uint8_t> &)> normalize_key;
	void clear(uint32_t aggid);
	void trunc(uint32_t aggid, int64_t n);
	void normalize(uint32_t aggid, uint64_t n);
	void denormalize(uint32_t aggid);

	[[nodiscard]] uint64_t normal(uint32_t aggid) const;
	[[nodiscard]] const aggregation *desc(uint32_t aggid) const;
	[[nodiscard]] bool printed(uint32_t aggid) const;
	void set_printed(uint32_t aggid);

	// Entries of the given aggregations (all if ids is empty), sorted.
	[[nodiscard]] std::vector<const agg_entry *> sorted(const std::vector<uint32_t> &ids,
							    const sort_opts &o) const;

	// One row per key present in any of ids; row[i] is the entry of ids[i]
	// or nullptr (a zero value). Sorted as dtrace_aggregate_walk_joined.
	struct row {
		std::vector<uint8_t> key;
		std::vector<const agg_entry *> vals;
	};
	[[nodiscard]] std::vector<row> joined(const std::vector<uint32_t> &ids,
					      const sort_opts &o) const;

	// An all-zero value of aggregation id (for missing joined entries).
	[[nodiscard]] const agg_entry &zero(uint32_t aggid) const;

	// Comparisons (illumos dt_aggregate_valcmp / keycmp).
	[[nodiscard]] int cmp_value(const aggregation &a, const std::vector<int64_t> &l,
				    const std::vector<int64_t> &r) const;
	[[nodiscard]] int cmp_key(const aggregation &a, const std::vector<uint8_t> &l,
				  const std::vector<uint8_t> &r, int keypos) const;

private:
	const program &prog_;
	struct per_agg {
		std::map<std::vector<uint8_t>, agg_entry> entries;
		uint64_t normal = 1;
		bool printed = false;
		agg_entry zero;
	};
	std::vector<per_agg> aggs_; // by id - 1
	per_agg *find(uint32_t aggid);
	[[nodiscard]] const per_agg *find(uint32_t aggid) const;
};

// The standard deviation of a stddev() value (illumos dt_stddev), normal
// applied.
[[nodiscard]] uint64_t stddev_of(const std::vector<int64_t> &v, uint64_t normal);

} // namespace dt::consumer_impl
