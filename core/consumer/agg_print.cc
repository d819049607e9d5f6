// SPDX-License-Identifier: MIT
//
// consumer/agg_print.cc - aggregations as dtrace(1) prints them (illumos
// dt_consume.c dt_print_aggs()/dt_print_datum() and dt_printf.c
// dtrace_fprinta(); the histograms are in quantize.cc):
//
//   default row     each key (" %16lld", "  %-50s", a stack ...), then the
//                   value (" %16lld", or a histogram), then "\n"
//   quantize        "\n%16s %41s %-9s\n" value/Distribution/count, then
//                   one "%16lld |@@@@...   count" row per bucket, with one
//                   empty bucket kept on each side of the data
//   printa(@a)      "\n" then the rows of @a, sorted
//   printa(fmt, @a) the format over each row's keys, %@ takes the value
//   exit            rows of every aggregation printa() never printed
#include "internal.hpp"
#include "json.hpp"
#include "quantize.hpp"
#include "util/bytes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

namespace dt::consumer_impl {

namespace {

// dt_print_datum() for a key; packed (agghist, aggpack): strings take 16
// columns, right-aligned.
std::string print_key(state &st, const datum &d, bool packed = false)
{
	using k = value_type::kind;
	switch (d.kind) {
	case k::stack:
	case k::ustack: return print_stack(st, d, "%s", st.opt.stackindent);
	case k::sym:
	case k::mod:
	case k::usym:
	case k::umod:
	case k::uaddr: return print_symbolic(st, d, "  %-50s");
	case k::string:
	case k::bytes:
		// By kind, not size alone: a string of 8 bytes is still a string.
		return print_bytes(d.p, d.size, packed ? 16 : -50, false, false, st.opt.rawbytes);
	default: break;
	}
	switch (d.size) {
	case 8: return strf(" %*lld", 16, static_cast<long long>(bytes::load_uint(d.p, 8)));
	case 4: return strf(" %*d", 8, static_cast<int>(bytes::load_uint(d.p, 4)));
	case 2: return strf(" %*d", 5, static_cast<int>(bytes::load_uint(d.p, 2)));
	case 1: return strf(" %*d", 3, static_cast<int>(bytes::load_uint(d.p, 1)));
	default: return print_bytes(d.p, d.size, packed ? 16 : -50, false, false, st.opt.rawbytes);
	}
}

} // namespace

std::vector<datum> key_datums(const aggregation &a, const std::vector<uint8_t> &key)
{
	std::vector<datum> v;
	for (size_t i = 0; i < a.keys.size(); i++) {
		datum d;
		size_t off = i < a.key_offsets.size() ? a.key_offsets[i] : 0;
		if (off + a.keys[i].size > key.size())
			break;
		d.p = key.data() + off;
		d.size = a.keys[i].size;
		d.kind = a.keys[i].k;
		d.is_signed = a.keys[i].is_signed;
		v.push_back(d);
	}
	return v;
}

sort_opts sorting(const state &st)
{
	sort_opts o;
	o.key = st.opt.aggsortkey;
	o.rev = st.opt.aggsortrev;
	o.pos = st.opt.aggsortpos;
	o.keypos = st.opt.aggsortkeypos;
	return o;
}

namespace {

datum value_datum(state &st, const aggregation &a, const agg_entry &e)
{
	datum d;
	d.p = reinterpret_cast<const uint8_t *>(e.value.data());
	d.size = static_cast<uint32_t>(e.value.size() * sizeof(int64_t));
	d.agg_func = a.func;
	d.agg = &a;
	d.normal = st.aggs.normal(a.id);
	d.is_signed = a.func != DTRACEAGG_COUNT;
	return d;
}

// What one walk over aggregations shares (illumos dt_print_aggdata_t):
// agghist totals and aggpack bin ranges by aggregation, and which
// aggregation's header was printed last.
struct walk {
	uint32_t hdr = 0;
	struct hist {
		long double total = 0;
		bool pos = false, neg = false;
	};
	std::map<uint32_t, hist> totals;
	std::map<uint32_t, minmax> bins;
};

bool hist_func(uint16_t f)
{
	return f == DTRACEAGG_SUM || f == DTRACEAGG_COUNT || f == DTRACEAGG_AVG ||
	       f == DTRACEAGG_STDDEV;
}

// dt_aggregate_total() and dt_aggregate_minmaxbin().
walk prepare(state &st, const std::vector<const agg_entry *> &entries)
{
	walk w;
	for (const agg_entry *e : entries) {
		const aggregation *a = st.aggs.desc(e->aggid);
		if (!a)
			continue;
		const auto &v = e->value;
		if (st.opt.agghist && hist_func(a->func) && !v.empty()) {
			int64_t val = v[0];
			if (a->func == DTRACEAGG_STDDEV)
				val = static_cast<int64_t>(stddev_of(v, 1));
			else if (a->func == DTRACEAGG_AVG)
				val = v[0] ? v[1] / v[0] : 0;
			auto &h = w.totals[a->id];
			h.pos |= val > 0;
			h.neg |= val < 0;
			long double lv = std::fabs(static_cast<long double>(val));
			if (st.opt.aggzoom)
				h.total = std::max(h.total, lv * (1 / k_zoom_max));
			else
				h.total += lv;
		}
		if (st.opt.aggpack && a->func == DTRACEAGG_QUANTIZE) {
			int mn = -1, mx = -1;
			for (size_t i = 0; i < v.size(); i++)
				if (v[i]) {
					if (mn == -1)
						mn = static_cast<int>(i);
					mx = static_cast<int>(i);
				}
			if (mn == -1)
				mn = mx = DTRACE_QUANTIZE_ZEROBUCKET;
			auto it = w.bins.find(a->id);
			if (it == w.bins.end()) {
				w.bins[a->id] = {mn, mx};
			} else {
				it->second.minbin = std::min(it->second.minbin, mn);
				it->second.maxbin = std::max(it->second.maxbin, mx);
			}
		}
		if (st.opt.aggpack && a->func == DTRACEAGG_LQUANTIZE)
			w.bins[a->id] = {1, static_cast<int>(v.size()) - 1};
	}
	return w;
}

// dt_print_aggs(): keys, then each value, then "\n" (not when packed).
void print_row(state &st, walk &w, const aggregation &ka, const std::vector<uint8_t> &key,
	       const std::vector<datum> &vals)
{
	bool hist = st.opt.agghist && hist_func(ka.func) && w.totals.count(ka.id);
	bool pack = st.opt.aggpack && w.bins.count(ka.id) &&
		    (ka.func == DTRACEAGG_QUANTIZE || ka.func == DTRACEAGG_LQUANTIZE);
	bool packed = hist || pack;
	std::string o;
	auto keys = key_datums(ka, key);
	if (packed && w.hdr != ka.id) {
		int width = 0;
		for (const auto &d : keys)
			width += (d.size == 1 ? 3 : d.size == 2 ? 5 : d.size == 4 ? 8 : 16) + 1;
		o += packed_header(ka, width, hist, pack ? w.bins[ka.id] : minmax{});
		w.hdr = ka.id;
	}
	for (const auto &d : keys)
		o += print_key(st, d, packed);
	for (const auto &d : vals) {
		if (hist && d.agg_func) {
			const auto &h = w.totals[ka.id];
			int64_t val = bytes::load_int(d.p, 8);
			o += " " + quantline(val, d.normal, h.total, h.pos, h.neg);
		} else if (pack && d.agg_func == DTRACEAGG_QUANTIZE) {
			o += quantize_packed(reinterpret_cast<const int64_t *>(d.p), w.bins[ka.id],
					     st.opt.aggzoom, st.opt.encoding);
		} else if (pack && d.agg_func == DTRACEAGG_LQUANTIZE) {
			o += lquantize_packed(*d.agg, reinterpret_cast<const int64_t *>(d.p),
					      d.size / 8, st.opt.aggzoom, st.opt.encoding);
		} else {
			o += print_agg_datum(st, d);
		}
	}
	if (!packed)
		o += "\n";
	st.put(o);
}

} // namespace

std::string print_agg_datum(state &st, const datum &d)
{
	const auto *w = reinterpret_cast<const int64_t *>(d.p);
	size_t n = d.size / sizeof(int64_t);
	uint64_t normal = d.normal ? d.normal : 1;
	switch (d.agg_func) {
	case DTRACEAGG_QUANTIZE: return print_quantize(w, n, normal, st.opt.aggzoom);
	case DTRACEAGG_LQUANTIZE:
		return d.agg ? print_lquantize(*d.agg, w, n, normal, st.opt.aggzoom)
			     : std::string();
	case DTRACEAGG_LLQUANTIZE:
		return d.agg ? print_llquantize(*d.agg, w, n, normal, st.opt.aggzoom)
			     : std::string();
	case DTRACEAGG_AVG:
		return strf(" %16lld", n >= 2 && w[0]
					       ? static_cast<long long>(
							 w[1] / static_cast<int64_t>(normal) / w[0])
					       : 0LL);
	case DTRACEAGG_STDDEV: {
		std::vector<int64_t> v(w, w + n);
		return strf(" %16llu", static_cast<unsigned long long>(
					       n >= 1 && w[0] ? stddev_of(v, normal) : 0));
	}
	default: return strf(" %*lld", 16, n >= 1 ? div_normal(w[0], normal) : 0LL);
	}
}

namespace {

void print_aggs_text(state &st, const std::vector<uint32_t> &ids, const fmt::format *f)
{
	if (ids.empty())
		return;
	sort_opts o = sorting(st);
	if (!f)
		st.put("\n");
	if (ids.size() == 1) {
		const aggregation *a = st.aggs.desc(ids[0]);
		if (!a)
			return;
		auto entries = st.aggs.sorted(ids, o);
		walk w = prepare(st, entries);
		for (const agg_entry *e : entries) {
			datum v = value_datum(st, *a, *e);
			if (!f) {
				print_row(st, w, *a, e->key, {v});
			} else {
				auto keys = key_datums(*a, e->key);
				std::string text;
				if (!format_text(st, *f, keys, {&v, 1}, text))
					return;
				st.put(text);
			}
			st.aggs.set_printed(a->id);
		}
		return;
	}
	const aggregation *ka = st.aggs.desc(ids[0]);
	if (!ka)
		return;
	walk w = prepare(st, st.aggs.sorted(ids, o));
	for (const auto &rw : st.aggs.joined(ids, o)) {
		std::vector<datum> vals;
		for (size_t j = 0; j < ids.size(); j++) {
			const aggregation *a = st.aggs.desc(ids[j]);
			const agg_entry &e = rw.vals[j] ? *rw.vals[j] : st.aggs.zero(ids[j]);
			vals.push_back(value_datum(st, *a, e));
		}
		if (!f) {
			print_row(st, w, *ka, rw.key, vals);
		} else {
			auto keys = key_datums(*ka, rw.key);
			std::string text;
			if (!format_text(st, *f, keys, vals, text))
				return;
			st.put(text);
		}
		for (auto id : ids)
			st.aggs.set_printed(id);
	}
}

} // namespace

std::optional<long long> scalar_of(const aggregation &a, const std::vector<int64_t> &v,
				   uint64_t normal)
{
	normal = normal ? normal : 1;
	size_t n = v.size();
	switch (a.func) {
	case DTRACEAGG_QUANTIZE:
	case DTRACEAGG_LQUANTIZE:
	case DTRACEAGG_LLQUANTIZE: return std::nullopt;
	case DTRACEAGG_AVG:
		return n >= 2 && v[0]
			       ? static_cast<long long>(v[1] / static_cast<int64_t>(normal) / v[0])
			       : 0LL;
	case DTRACEAGG_STDDEV:
		return n >= 1 && v[0] ? static_cast<long long>(stddev_of(v, normal)) : 0LL;
	default: return n >= 1 ? div_normal(v[0], normal) : 0LL;
	}
}

void print_aggs(state &st, const std::vector<uint32_t> &ids, const fmt::format *f)
{
	if (st.json) {
		// The data, and printa(fmt, ...)'s text as its message.
		std::string text;
		if (f) {
			st.capture = &text;
			print_aggs_text(st, ids, f);
			st.capture = nullptr;
		}
		st.json->printa(ids, f ? &text : nullptr);
		return;
	}
	if (!f && st.opt.folded && ids.size() == 1 && print_folded(st, ids[0]))
		return;
	print_aggs_text(st, ids, f);
}

namespace {

// The rows of aggregations ids, sorted together (dtrace_aggregate_print).
void print_rows(state &st, const std::vector<uint32_t> &ids)
{
	if (ids.empty())
		return;
	auto entries = st.aggs.sorted(ids, sorting(st));
	walk w = prepare(st, entries);
	for (const agg_entry *e : entries) {
		const aggregation *a = st.aggs.desc(e->aggid);
		print_row(st, w, *a, e->key, {value_datum(st, *a, *e)});
	}
}

} // namespace

void print_unprinted(state &st)
{
	std::vector<uint32_t> ids;
	for (const auto &a : st.prog.aggregations) {
		if (st.aggs.printed(a.id))
			continue;
		if (st.json)
			st.json->aggregation(a.id);
		else if (st.opt.folded && !print_folded(st, a.id))
			print_rows(st, {a.id}); // in order among the folded ones
		else if (!st.opt.folded)
			ids.push_back(a.id);
	}
	print_rows(st, ids);
}

} // namespace dt::consumer_impl
