// SPDX-License-Identifier: MIT
//
// consumer/aggregate.cc - aggregation data in the consumer (aggregate.hpp),
// after illumos dt_aggregate.c (merging, sorting, clear, trunc) and
// dt_consume.c (dt_stddev). Merging and the bucket layouts are
// core/dif/dif_agg.h's, the arithmetic every engine uses.
#include "aggregate.hpp"
#include "quantize.hpp"
#include "util/bytes.hpp"

extern "C" {
#include "dif_agg.h" // the aggregation arithmetic (merge, bucket edges)
}

#include <algorithm>
#include <cstring>
#include <limits>

namespace dt::consumer_impl {

namespace {

using u128 = unsigned __int128;

int sgn(long double l, long double r)
{
	return l < r ? -1 : (l > r ? 1 : 0);
}

int sgn64(int64_t l, int64_t r)
{
	return l < r ? -1 : (l > r ? 1 : 0);
}

int64_t word(const std::vector<int64_t> &v, size_t i)
{
	return i < v.size() ? v[i] : 0;
}

u128 squares(const std::vector<int64_t> &v)
{
	return (static_cast<u128>(static_cast<uint64_t>(word(v, 3))) << 64) |
	       static_cast<uint64_t>(word(v, 2));
}

uint64_t isqrt128(u128 n)
{
	u128 res = 0;
	u128 bit = static_cast<u128>(1) << 126;
	while (bit > n)
		bit >>= 2;
	while (bit != 0) {
		if (n >= res + bit) {
			n -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return static_cast<uint64_t>(res);
}

// The value each llquantize bucket weighs in a comparison (illumos
// dt_aggregate_llquantizedsum): its lowest value, factor^low - 1 for
// bucket 0.
std::vector<long double> llq_values(const aggregation &a, size_t n)
{
	std::vector<int64_t> edges(n);
	llquantize_edges(a, edges.data(), n);
	std::vector<long double> out(n, 0);
	for (size_t i = 0; i < n; i++)
		out[i] = static_cast<long double>(i == 0 ? edges[0] - 1 : edges[i]);
	return out;
}

} // namespace

uint64_t stddev_of(const std::vector<int64_t> &v, uint64_t normal)
{
	uint64_t count = static_cast<uint64_t>(word(v, 0));
	if (count == 0 || normal == 0)
		return 0;
	u128 avg_sq = squares(v) / normal / normal / count;
	int64_t norm_avg = word(v, 1) / static_cast<int64_t>(normal) / static_cast<int64_t>(count);
	if (norm_avg < 0)
		norm_avg = -norm_avg;
	u128 sq_avg = static_cast<u128>(static_cast<uint64_t>(norm_avg)) *
		      static_cast<uint64_t>(norm_avg);
	return isqrt128(avg_sq - sq_avg);
}

agg_store::agg_store(const program &p) : prog_(p), aggs_(p.aggregations.size())
{
	for (size_t i = 0; i < aggs_.size(); i++) {
		const auto &a = p.aggregations[i];
		aggs_[i].zero.aggid = a.id;
		aggs_[i].zero.value.assign(a.nwords, 0);
	}
}

agg_store::per_agg *agg_store::find(uint32_t aggid)
{
	if (aggid == 0 || aggid > aggs_.size())
		return nullptr;
	return &aggs_[aggid - 1];
}

const agg_store::per_agg *agg_store::find(uint32_t aggid) const
{
	if (aggid == 0 || aggid > aggs_.size())
		return nullptr;
	return &aggs_[aggid - 1];
}

const aggregation *agg_store::desc(uint32_t aggid) const
{
	if (aggid == 0 || aggid > prog_.aggregations.size())
		return nullptr;
	return &prog_.aggregations[aggid - 1];
}

void agg_store::merge(const agg_data &d)
{
	per_agg *pa = find(d.aggid);
	const aggregation *a = desc(d.aggid);
	if (!pa || !a)
		return;
	std::vector<uint8_t> key = d.key;
	if (normalize_key)
		normalize_key(*a, key);
	auto [it, fresh] = pa->entries.try_emplace(key);
	agg_entry &e = it->second;
	if (fresh) {
		e.aggid = d.aggid;
		e.key = key;
		e.value = d.value;
		return;
	}
	auto &v = e.value;
	if (v.size() < d.value.size())
		v.resize(d.value.size(), 0);
	dif_agg_merge(a->func, v.data(), d.value.data(), static_cast<uint32_t>(d.value.size()));
}

void agg_store::clear(uint32_t aggid)
{
	if (per_agg *pa = find(aggid))
		for (auto &[k, e] : pa->entries)
			std::fill(e.value.begin(), e.value.end(), 0);
}

// dt_trunc(): walk by value (descending to keep the largest, ascending for
// a negative count) and remove what follows the first |n|.
void agg_store::trunc(uint32_t aggid, int64_t n)
{
	per_agg *pa = find(aggid);
	if (!pa)
		return;
	sort_opts o;
	o.rev = n >= 0;
	auto v = sorted({aggid}, o);
	uint64_t keep = n < 0 ? static_cast<uint64_t>(-n) : static_cast<uint64_t>(n);
	std::vector<std::vector<uint8_t>> drop;
	for (size_t i = 0; i < v.size(); i++)
		if (i >= keep)
			drop.push_back(v[i]->key);
	for (const auto &k : drop)
		pa->entries.erase(k);
}

void agg_store::normalize(uint32_t aggid, uint64_t n)
{
	if (per_agg *pa = find(aggid))
		pa->normal = n == 0 ? 1 : n;
}

void agg_store::denormalize(uint32_t aggid)
{
	if (per_agg *pa = find(aggid))
		pa->normal = 1;
}

uint64_t agg_store::normal(uint32_t aggid) const
{
	const per_agg *pa = find(aggid);
	return pa ? pa->normal : 1;
}

bool agg_store::printed(uint32_t aggid) const
{
	const per_agg *pa = find(aggid);
	return pa && pa->printed;
}

void agg_store::set_printed(uint32_t aggid)
{
	if (per_agg *pa = find(aggid))
		pa->printed = true;
}

const agg_entry &agg_store::zero(uint32_t aggid) const
{
	return find(aggid)->zero;
}

int agg_store::cmp_value(const aggregation &a, const std::vector<int64_t> &l,
			 const std::vector<int64_t> &r) const
{
	switch (a.func) {
	case DTRACEAGG_AVG: {
		int64_t la = word(l, 0) ? word(l, 1) / word(l, 0) : 0;
		int64_t ra = word(r, 0) ? word(r, 1) / word(r, 0) : 0;
		return sgn64(la, ra);
	}
	case DTRACEAGG_STDDEV: {
		uint64_t ls = stddev_of(l, 1), rs = stddev_of(r, 1);
		return ls < rs ? -1 : (ls > rs ? 1 : 0);
	}
	case DTRACEAGG_QUANTIZE: {
		long double lt = 0, rt = 0;
		for (size_t i = 0; i < DTRACE_QUANTIZE_NBUCKETS; i++) {
			auto bv = static_cast<long double>(DTRACE_QUANTIZE_BUCKETVAL(i));
			lt += bv * static_cast<long double>(word(l, i));
			rt += bv * static_cast<long double>(word(r, i));
		}
		if (int c = sgn(lt, rt))
			return c;
		return sgn64(word(l, DTRACE_QUANTIZE_ZEROBUCKET),
			     word(r, DTRACE_QUANTIZE_ZEROBUCKET));
	}
	case DTRACEAGG_LQUANTIZE: {
		int64_t base = a.params.size() > 0 ? a.params[0] : 0;
		int64_t step = a.params.size() > 2 && a.params[2] ? a.params[2] : 1;
		int64_t levels = lquantize_levels(a);
		auto total = [&](const std::vector<int64_t> &v) {
			long double t = static_cast<long double>(word(v, 0)) *
					static_cast<long double>(base - 1);
			int64_t b = base;
			for (int64_t i = 0; i < levels; b += step, i++)
				t += static_cast<long double>(word(v, static_cast<size_t>(i + 1))) *
				     static_cast<long double>(b);
			return t +
			       static_cast<long double>(word(v, static_cast<size_t>(levels + 1))) *
				       static_cast<long double>(b + 1);
		};
		auto zero = [&](const std::vector<int64_t> &v) -> int64_t {
			if (base - 1 == 0)
				return word(v, 0);
			int64_t b = base;
			for (int64_t i = 0; i < levels; b += step, i++)
				if (b == 0)
					return word(v, static_cast<size_t>(i + 1));
			if (b + 1 == 0)
				return word(v, static_cast<size_t>(levels + 1));
			return 0;
		};
		if (int c = sgn(total(l), total(r)))
			return c;
		return sgn64(zero(l), zero(r));
	}
	case DTRACEAGG_LLQUANTIZE: {
		size_t n = std::max(l.size(), r.size());
		auto vals = llq_values(a, n);
		long double lt = 0, rt = 0;
		for (size_t i = 0; i < n; i++) {
			lt += vals[i] * static_cast<long double>(word(l, i));
			rt += vals[i] * static_cast<long double>(word(r, i));
		}
		if (int c = sgn(lt, rt))
			return c;
		return sgn64(word(l, 0), word(r, 0));
	}
	default: return sgn64(word(l, 0), word(r, 0));
	}
}

int agg_store::cmp_key(const aggregation &a, const std::vector<uint8_t> &l,
		       const std::vector<uint8_t> &r, int keypos) const
{
	size_t n = a.keys.size();
	for (size_t j = 0; j < n; j++) {
		size_t i = n ? (j + static_cast<size_t>(std::max(keypos, 0))) % n : j;
		const value_type &t = a.keys[i];
		size_t off = i < a.key_offsets.size() ? a.key_offsets[i] : 0;
		size_t sz = t.size;
		if (off + sz > l.size() || off + sz > r.size())
			continue;
		const uint8_t *lp = l.data() + off, *rp = r.data() + off;
		bool bytewise = t.k == value_type::kind::string || t.k == value_type::kind::bytes;
		if (!bytewise && (sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
			uint64_t lv = bytes::load_uint(lp, static_cast<uint32_t>(sz));
			uint64_t rv = bytes::load_uint(rp, static_cast<uint32_t>(sz));
			if (lv != rv)
				return lv < rv ? -1 : 1;
			continue;
		}
		if (sz == 16 && (t.k == value_type::kind::usym || t.k == value_type::kind::umod ||
				 t.k == value_type::kind::uaddr)) {
			for (size_t w = 0; w < 2; w++) {
				uint64_t lv = bytes::load_uint(lp + 8 * w, 8);
				uint64_t rv = bytes::load_uint(rp + 8 * w, 8);
				if (lv != rv)
					return lv < rv ? -1 : 1;
			}
			continue;
		}
		if (int c = std::memcmp(lp, rp, sz))
			return c < 0 ? -1 : 1;
	}
	return 0;
}

std::vector<const agg_entry *> agg_store::sorted(const std::vector<uint32_t> &ids,
						 const sort_opts &o) const
{
	std::vector<const agg_entry *> v;
	for (size_t i = 0; i < aggs_.size(); i++) {
		uint32_t id = static_cast<uint32_t>(i + 1);
		if (!ids.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
			continue;
		for (const auto &[k, e] : aggs_[i].entries)
			v.push_back(&e);
	}
	auto cmp = [&](const agg_entry *l, const agg_entry *r) {
		if (l->aggid != r->aggid)
			return l->aggid < r->aggid ? -1 : 1;
		const aggregation &a = prog_.aggregations[l->aggid - 1];
		if (o.key) {
			if (int c = cmp_key(a, l->key, r->key, o.keypos))
				return c;
			return cmp_value(a, l->value, r->value);
		}
		if (int c = cmp_value(a, l->value, r->value))
			return c;
		return cmp_key(a, l->key, r->key, o.keypos);
	};
	std::stable_sort(v.begin(), v.end(), [&](const agg_entry *l, const agg_entry *r) {
		return o.rev ? cmp(r, l) < 0 : cmp(l, r) < 0;
	});
	return v;
}

std::vector<agg_store::row> agg_store::joined(const std::vector<uint32_t> &ids,
					      const sort_opts &o) const
{
	std::map<std::vector<uint8_t>, row> rows;
	for (size_t j = 0; j < ids.size(); j++) {
		const per_agg *pa = find(ids[j]);
		if (!pa)
			continue;
		for (const auto &[k, e] : pa->entries) {
			auto &rw = rows[k];
			if (rw.vals.empty()) {
				rw.key = k;
				rw.vals.assign(ids.size(), nullptr);
			}
			rw.vals[j] = &e;
		}
	}
	std::vector<row> v;
	for (auto &[k, rw] : rows)
		v.push_back(std::move(rw));
	if (ids.empty())
		return v;
	const aggregation &ka = prog_.aggregations[ids[0] - 1];
	size_t n = ids.size();
	size_t pos = static_cast<size_t>(std::max(o.pos, 0)) % n;
	auto val = [&](const row &rw, size_t j) -> const std::vector<int64_t> & {
		return rw.vals[j] ? rw.vals[j]->value : zero(ids[j]).value;
	};
	auto cmp = [&](const row &l, const row &r) {
		if (o.key)
			if (int c = cmp_key(ka, l.key, r.key, o.keypos))
				return c;
		for (size_t jj = 0; jj < n; jj++) {
			size_t j = (jj + pos) % n;
			if (int c = cmp_value(prog_.aggregations[ids[j] - 1], val(l, j), val(r, j)))
				return c;
		}
		return o.key ? 0 : cmp_key(ka, l.key, r.key, o.keypos);
	};
	std::stable_sort(v.begin(), v.end(), [&](const row &l, const row &r) {
		return o.rev ? cmp(r, l) < 0 : cmp(l, r) < 0;
	});
	return v;
}

} // namespace dt::consumer_impl
