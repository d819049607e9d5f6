// SPDX-License-Identifier: MIT
//
// consumer/metrics.cc - the aggregations as Prometheus' text exposition
// format 0.0.4, or OpenMetrics 1.0 text (-x metrics, dtrace/metrics.hpp;
// the mapping is documented in docs/metrics.md):
//
//   @name                 family dtrace_<name> (the anonymous @: dtrace_anon)
//   count(), sum()        counter: dtrace_<name>_total
//   min() max() avg()     gauge:   dtrace_<name>
//   stddev()
//   quantize()            histogram: dtrace_<name>_bucket{le="..."} for
//   lquantize()           the buckets from the one below the first non-zero
//   llquantize()          one to the last (cumulative), le="+Inf" (all),
//                         _sum (each bucket's value times its count: the
//                         quantizations keep no exact sum) and _count
//   the keys              labels key0 .. keyN, as printa() prints them
//                         (stacks: frames joined by ';', root first)
//
// Values are as dtrace prints them: normalize() divides them; avg() is
// exact (the sum over the count), stddev() is illumos' dt_stddev().
// The two formats differ only where OpenMetrics asks: a counter's HELP
// and TYPE name the family without "_total", and the text ends "# EOF".
#include "internal.hpp"
#include "quantize.hpp"
#include "util/bytes.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace dt::consumer_impl {

namespace {

// A label value or HELP text escaped (\\, \", \n; HELP leaves '"'), and
// made valid UTF-8: a byte that does not begin a well-formed sequence
// becomes U+FFFD.
std::string escape(std::string_view s, bool quotes)
{
	std::string o;
	o.reserve(s.size());
	for (size_t i = 0; i < s.size();) {
		auto c = static_cast<unsigned char>(s[i]);
		if (c == '\\' || (quotes && c == '"')) {
			o += '\\';
			o += static_cast<char>(c);
			i++;
			continue;
		}
		if (c == '\n') {
			o += "\\n";
			i++;
			continue;
		}
		size_t len = c < 0x80		  ? 1
			     : (c & 0xe0) == 0xc0 ? 2
			     : (c & 0xf0) == 0xe0 ? 3
			     : (c & 0xf8) == 0xf0 ? 4
						  : 0;
		bool ok = len > 0 && i + len <= s.size();
		for (size_t j = 1; ok && j < len; j++)
			ok = (static_cast<unsigned char>(s[i + j]) & 0xc0) == 0x80;
		if (ok && len > 1) {
			// Overlong forms, surrogates and beyond U+10FFFF.
			uint32_t cp = c & (0x7f >> len);
			for (size_t j = 1; j < len; j++)
				cp = (cp << 6) | (static_cast<unsigned char>(s[i + j]) & 0x3f);
			static const uint32_t k_min[] = {0, 0, 0x80, 0x800, 0x10000};
			ok = cp >= k_min[len] && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
		}
		if (!ok) {
			o += "\xef\xbf\xbd";
			i++;
			continue;
		}
		o.append(s.substr(i, len));
		i += len;
	}
	return o;
}

std::string trim(std::string_view s)
{
	size_t b = s.find_first_not_of(" \t\n");
	if (b == std::string_view::npos)
		return {};
	size_t e = s.find_last_not_of(" \t\n");
	return std::string(s.substr(b, e - b + 1));
}

// One key as a label value: what printa() shows for it, without padding.
std::string key_text(state &st, const value_type &t, const uint8_t *p)
{
	using k = value_type::kind;
	datum d;
	d.p = p;
	d.size = t.size;
	d.kind = t.k;
	d.is_signed = t.is_signed;
	switch (t.k) {
	case k::stack:
	case k::ustack: {
		// Frames as printed, one a line; root first, joined by ';'.
		std::string text = print_stack(st, d, "%s", 0);
		std::vector<std::string> frames;
		size_t start = 0;
		while (start < text.size()) {
			size_t nl = text.find('\n', start);
			if (nl == std::string::npos)
				nl = text.size();
			std::string f = trim(std::string_view(text).substr(start, nl - start));
			if (!f.empty())
				frames.push_back(std::move(f));
			start = nl + 1;
		}
		std::string o;
		for (auto it = frames.rbegin(); it != frames.rend(); ++it)
			o += (o.empty() ? "" : ";") + *it;
		return o;
	}
	case k::sym:
	case k::mod:
	case k::usym:
	case k::umod:
	case k::uaddr: return trim(print_symbolic(st, d, "%s"));
	case k::string:
		return std::string(reinterpret_cast<const char *>(p),
				   strnlen(reinterpret_cast<const char *>(p), t.size));
	case k::pointer: return strf("0x%" PRIx64, bytes::load_uint(p, t.size));
	case k::bytes: break;
	case k::integer:
		if (t.size == 1 || t.size == 2 || t.size == 4 || t.size == 8)
			return t.is_signed ? std::to_string(bytes::load_int(p, t.size))
					   : std::to_string(bytes::load_uint(p, t.size));
		break;
	}
	std::string o = "0x";
	for (uint32_t i = 0; i < t.size; i++)
		o += strf("%02x", p[i]);
	return o;
}

// {key0="...",key1="..."} plus one more label (le) when given.
std::string labels(state &st, const aggregation &a, const std::vector<uint8_t> &key,
		   const std::string &extra = {})
{
	std::string o;
	for (size_t i = 0; i < a.keys.size(); i++) {
		size_t off = i < a.key_offsets.size() ? a.key_offsets[i] : 0;
		if (off + a.keys[i].size > key.size())
			break;
		o += (o.empty() ? "" : ",") + strf("key%zu=\"", i) +
		     escape(key_text(st, a.keys[i], key.data() + off), true) + "\"";
	}
	if (!extra.empty())
		o += (o.empty() ? "" : ",") + extra;
	return o.empty() ? o : "{" + o + "}";
}

// One bucket of a quantization: its index in the value words, the value
// dtrace prints for it (its lowest value; the underflow bucket's is one
// below the first edge) and the largest value it holds (le; none: +Inf).
struct bucket {
	size_t index;
	long double value;
	std::optional<int64_t> le;
};

// dt_print_quantize() and friends' rows, in order (quantize.cc).
std::vector<bucket> buckets(const aggregation &a, size_t n)
{
	std::vector<bucket> b;
	if (a.func == DTRACEAGG_QUANTIZE) {
		for (size_t i = 0; i < n && i < DTRACE_QUANTIZE_NBUCKETS; i++) {
			int64_t v = DTRACE_QUANTIZE_BUCKETVAL(i);
			std::optional<int64_t> le = v;
			if (v > 0) // [2^k, 2^(k+1) - 1]; the last holds up to INT64_MAX
				le = static_cast<int64_t>(static_cast<uint64_t>(v) * 2 - 1);
			b.push_back({i, static_cast<long double>(v), le});
		}
		return b;
	}
	if (a.func == DTRACEAGG_LQUANTIZE) {
		int64_t base = a.params.size() > 0 ? a.params[0] : 0;
		int64_t step = a.params.size() > 2 ? a.params[2] : 1;
		int levels = lquantize_levels(a);
		if (levels == 0 || n != static_cast<size_t>(levels) + 2)
			return b;
		b.push_back({0, static_cast<long double>(base - 1), base - 1});
		for (int i = 1; i <= levels; i++)
			b.push_back({static_cast<size_t>(i),
				     static_cast<long double>(base + (i - 1) * step),
				     base + i * step - 1});
		b.push_back({static_cast<size_t>(levels) + 1,
			     static_cast<long double>(base + levels * step), std::nullopt});
		return b;
	}
	std::vector<int64_t> edges(n);
	size_t top = llquantize_edges(a, edges.data(), n);
	for (size_t i = 0; i < n && i <= top; i++) {
		long double v = static_cast<long double>(i == 0 ? edges[0] - 1 : edges[i]);
		std::optional<int64_t> le;
		if (i < top)
			le = (i == 0 ? edges[0] : edges[i + 1]) - 1;
		b.push_back({i, v, le});
	}
	return b;
}

std::string number(long double v)
{
	if (v == static_cast<long double>(static_cast<int64_t>(v)))
		return std::to_string(static_cast<int64_t>(v));
	return strf("%.17Lg", v);
}

const char *func_name(uint16_t f)
{
	switch (f) {
	case DTRACEAGG_COUNT: return "count";
	case DTRACEAGG_SUM: return "sum";
	case DTRACEAGG_MIN: return "min";
	case DTRACEAGG_MAX: return "max";
	case DTRACEAGG_AVG: return "avg";
	case DTRACEAGG_STDDEV: return "stddev";
	case DTRACEAGG_QUANTIZE: return "quantize";
	case DTRACEAGG_LQUANTIZE: return "lquantize";
	case DTRACEAGG_LLQUANTIZE: return "llquantize";
	default: return "aggregation";
	}
}

void histogram(state &st, const aggregation &a, const agg_entry &e, uint64_t normal,
	       const std::string &family, std::string &o)
{
	const std::vector<int64_t> &w = e.value;
	std::vector<bucket> bs = buckets(a, w.size());
	auto count = [&](const bucket &b) { return div_normal(w[b.index], normal); };
	size_t first = bs.size(), last = 0;
	for (size_t i = 0; i < bs.size(); i++)
		if (w[bs[i].index] != 0) {
			first = std::min(first, i);
			last = i;
		}
	// One empty bucket below the data, as dtrace prints it: PromQL's
	// histogram_quantile() takes a bucket's lower bound from the one below
	// (0 for the first), so the first bucket with data keeps its range.
	if (first > 0 && first < bs.size())
		first--;
	long long cum = 0, total = 0;
	long double sum = 0;
	for (size_t i = 0; i < bs.size(); i++) {
		long long c = count(bs[i]);
		sum += bs[i].value * static_cast<long double>(c);
		cum += c;
		// The other zero buckets either side of the data are left out.
		if (i >= first && i <= last && bs[i].le)
			o += family + "_bucket" +
			     labels(st, a, e.key, "le=\"" + std::to_string(*bs[i].le) + "\"") +
			     " " + std::to_string(cum) + "\n";
	}
	total = cum;
	o += family + "_bucket" + labels(st, a, e.key, "le=\"+Inf\"") + " " +
	     std::to_string(total) + "\n";
	o += family + "_sum" + labels(st, a, e.key) + " " + number(sum) + "\n";
	o += family + "_count" + labels(st, a, e.key) + " " + std::to_string(total) + "\n";
}

} // namespace

std::string metrics_text(state &st, bool openmetrics)
{
	std::string o;
	for (const aggregation &a : st.prog.aggregations) {
		std::string family = "dtrace_" + (a.name.empty() ? std::string("anon") : a.name);
		uint64_t normal = st.aggs.normal(a.id);
		bool counter = a.func == DTRACEAGG_COUNT || a.func == DTRACEAGG_SUM;
		bool hist = a.func == DTRACEAGG_QUANTIZE || a.func == DTRACEAGG_LQUANTIZE ||
			    a.func == DTRACEAGG_LLQUANTIZE;
		std::string sample = counter ? family + "_total" : family;
		std::string meta = counter && !openmetrics ? sample : family;
		std::string args;
		for (int64_t p : a.params)
			args += ", " + std::to_string(p);
		std::string help = "DTrace aggregation @" + a.name + " = " + func_name(a.func) +
				   (args.empty() ? "()" : "(value" + args + ")");
		if (!a.keys.empty())
			help += strf(" by key0..key%zu", a.keys.size() - 1);
		o += "# HELP " + meta + " " + escape(help, false) + "\n";
		o += "# TYPE " + meta + " " +
		     (counter ? "counter"
		      : hist  ? "histogram"
			      : "gauge") +
		     "\n";
		for (const agg_entry *e : st.aggs.sorted({a.id}, sort_opts{true, false, 0, 0})) {
			const std::vector<int64_t> &w = e->value;
			if (w.empty())
				continue;
			if (hist) {
				histogram(st, a, *e, normal, family, o);
				continue;
			}
			std::string v;
			if (a.func == DTRACEAGG_AVG) {
				long double cnt = static_cast<long double>(w[0]);
				v = number(w.size() < 2 || w[0] == 0
						   ? 0
						   : static_cast<long double>(w[1]) / cnt /
							     static_cast<long double>(
								     normal ? normal : 1));
			} else if (a.func == DTRACEAGG_STDDEV) {
				v = std::to_string(stddev_of(w, normal));
			} else if (a.func == DTRACEAGG_COUNT) {
				v = std::to_string(div_normal(w[0], normal));
			} else {
				v = std::to_string(w[0] /
						   static_cast<int64_t>(normal ? normal : 1));
			}
			o += sample + labels(st, a, e->key) + " " + v + "\n";
		}
	}
	if (openmetrics)
		o += "# EOF\n";
	return o;
}

} // namespace dt::consumer_impl
