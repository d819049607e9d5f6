// SPDX-License-Identifier: MIT
//
// consumer/quantize.cc - the quantize(), lquantize() and llquantize()
// tables and their packed forms (illumos dt_consume.c dt_print_quantize(),
// dt_print_lquantize(), dt_print_llquantize(), dt_print_quantline(),
// dt_print_*_packed(), dt_print_quanthdr*()):
//
//   "\n%16s %41s %-9s\n"   value  ---- Distribution ----  count
//   "%16lld "             the bucket's value, then
//   "|%s%s %-9lld\n"      '@' * round(40 * |count| / total), spaces, count
//
// One empty bucket is kept on each side of the data; negative counts draw
// bars to the left of the '|' (both signs: half-width bars each side).
#include "quantize.hpp"

#include "internal.hpp"

extern "C" {
#include "dif_agg.h"
}

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace dt::consumer_impl {

namespace {

const char k_ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";

const char k_spaces[] = "                                        ";

struct bins {
	int first, last;
	long double total = 0;
	bool positives = false, negatives = false;
};

void totals(bins &b, const int64_t *data, bool zoom)
{
	for (int i = b.first; i <= b.last; i++) {
		b.positives |= data[i] > 0;
		b.negatives |= data[i] < 0;
		add_total(b.total, data[i], zoom);
	}
}

std::string header()
{
	return strf("\n%16s %41s %-9s\n", "value", "------------- Distribution -------------",
		    "count");
}

// dt_ndigits()
int ndigits(long long val)
{
	int rval = 1;
	long long cmp = 10;
	if (val < 0) {
		val = val == INT64_MIN ? INT64_MAX : -val;
		rval++;
	}
	while (val > cmp && cmp > 0) {
		rval++;
		cmp *= 10;
	}
	return rval < 4 ? 4 : rval;
}

// dt_print_packed(): one bucket as one character.
std::string packed_char(long double datum, long double total, int encoding)
{
	static const char ascii[] = "__xxxxXX";
	static const char neg[] = "vvvvVV";
	if (datum == 0)
		return " ";
	if (datum < 0) {
		long double v = std::fabs(datum * (sizeof neg - 2)) / total;
		return std::string(1, neg[static_cast<unsigned>(v + 0.5)]);
	}
	bool utf8 = encoding != 1;
	const char *term = std::getenv("TERM");
	if (encoding == 0 && term && (std::strcmp(term, "sun") == 0 || std::strcmp(term, "sun-color") == 0 ||
		     std::strcmp(term, "dumb") == 0))
		utf8 = false;
	if (utf8) {
		int block = 0x2581 + static_cast<int>(((datum * 7) / total) + 0.5);
		return strf("%c%c%c", 0xe0 | (block >> 12), 0x80 | ((block >> 6) & 0x3f),
			    0x80 | (block & 0x3f));
	}
	long double v = (datum * (sizeof ascii - 2)) / total;
	return std::string(1, ascii[static_cast<unsigned>(v + 0.5)]);
}

int64_t param(const aggregation &a, size_t i, int64_t dflt)
{
	return i < a.params.size() ? a.params[i] : dflt;
}

} // namespace

int lquantize_levels(const aggregation &a)
{
	return static_cast<int>(
		dif_agg_lquantize_levels(param(a, 0, 0), param(a, 1, 0), param(a, 2, 1)));
}

uint32_t llquantize_edges(const aggregation &a, int64_t *edges, size_t n)
{
	return dif_agg_llquantize_edges(param(a, 0, 10), param(a, 1, 0), param(a, 2, 0),
					param(a, 3, 10), edges, static_cast<uint32_t>(n));
}

long long div_normal(int64_t v, uint64_t normal)
{
	// illumos: (long long)val / normal, an unsigned division.
	return static_cast<long long>(static_cast<uint64_t>(v) / (normal ? normal : 1));
}

// dt_quantize_total()
void add_total(long double &total, int64_t datum, bool zoom)
{
	long double v = std::fabs(static_cast<long double>(datum));
	if (!zoom) {
		total += v;
		return;
	}
	v *= 1 / k_zoom_max;
	if (total < v)
		total = v;
}

// dt_print_quantline()
std::string quantline(int64_t val, uint64_t normal, long double total, bool positives,
		      bool negatives)
{
	unsigned len = 40;
	const char *ats = k_ats;
	const char *spaces = k_spaces;
	auto depth_of = [&](unsigned l) {
		if (total == 0)
			return 0u;
		long double f = (std::fabs(static_cast<long double>(val)) * l) / total;
		return static_cast<unsigned>(f + 0.5);
	};
	if (!negatives) {
		unsigned depth = positives ? depth_of(len) : 0;
		return strf("|%s%s %-9lld\n", ats + len - depth, spaces + depth,
			    div_normal(val, normal));
	}
	if (!positives) {
		unsigned depth = depth_of(len);
		return strf("%s%s| %-9lld\n", spaces + depth, ats + len - depth,
			    div_normal(val, normal));
	}
	len /= 2;
	ats += len;
	spaces += len;
	unsigned depth = depth_of(len);
	if (val <= 0)
		return strf("%s%s|%*s %-9lld\n", spaces + depth, ats + len - depth,
			    static_cast<int>(len), "", div_normal(val, normal));
	return strf("%20s|%s%s %-9lld\n", "", ats + len - depth, spaces + depth,
		    div_normal(val, normal));
}

// dt_print_quantize()
std::string print_quantize(const int64_t *data, size_t n, uint64_t normal, bool zoom)
{
	if (n != DTRACE_QUANTIZE_NBUCKETS)
		return {};
	const int nb = DTRACE_QUANTIZE_NBUCKETS;
	bins b{0, nb - 1};
	while (b.first < nb - 1 && data[b.first] == 0)
		b.first++;
	if (b.first == nb - 1) {
		b.first = DTRACE_QUANTIZE_ZEROBUCKET - 1;
		b.last = DTRACE_QUANTIZE_ZEROBUCKET + 1;
	} else {
		if (b.first > 0)
			b.first--;
		while (b.last > 0 && data[b.last] == 0)
			b.last--;
		if (b.last < nb - 1)
			b.last++;
	}
	totals(b, data, zoom);
	std::string o = header();
	for (int i = b.first; i <= b.last; i++) {
		o += strf("%16lld ", static_cast<long long>(
					     DTRACE_QUANTIZE_BUCKETVAL(static_cast<size_t>(i))));
		o += quantline(data[i], normal, b.total, b.positives, b.negatives);
	}
	return o;
}

// dt_print_lquantize()
std::string print_lquantize(const aggregation &a, const int64_t *data, size_t n, uint64_t normal,
			    bool zoom)
{
	int64_t base = param(a, 0, 0), step = param(a, 2, 1);
	int levels = lquantize_levels(a);
	if (levels == 0 || n != static_cast<size_t>(levels) + 2)
		return {};
	bins b{0, levels + 1};
	while (b.first <= levels + 1 && data[b.first] == 0)
		b.first++;
	if (b.first > levels + 1) {
		b.first = 0;
		b.last = std::min(2, levels + 1);
	} else {
		if (b.first > 0)
			b.first--;
		while (b.last > 0 && data[b.last] == 0)
			b.last--;
		if (b.last < levels + 1)
			b.last++;
	}
	totals(b, data, zoom);
	std::string o = header();
	for (int i = b.first; i <= b.last; i++) {
		if (i == 0) {
			o += strf("%16s ", strf("< %d", static_cast<int>(base)).c_str());
		} else if (i == levels + 1) {
			o += strf("%16s ",
				  strf(">= %d", static_cast<int>(base + levels * step)).c_str());
		} else {
			o += strf("%16d ", static_cast<int>(base + (i - 1) * step));
		}
		o += quantline(data[i], normal, b.total, b.positives, b.negatives);
	}
	return o;
}

// dt_print_llquantize()
std::string print_llquantize(const aggregation &a, const int64_t *data, size_t n, uint64_t normal,
			     bool zoom)
{
	int64_t factor = param(a, 0, 10), low = param(a, 1, 0), high = param(a, 2, 0);
	int64_t nsteps = param(a, 3, 10);
	int levels = static_cast<int>(n);
	if (levels == 0 || factor < 2 || low >= high || nsteps == 0 || factor > nsteps)
		return {};
	bins b{0, levels - 1};
	while (b.first < levels && data[b.first] == 0)
		b.first++;
	if (b.first == levels) {
		b.first = 0;
		b.last = std::min(1, levels - 1);
	} else {
		if (b.first > 0)
			b.first--;
		while (b.last > 0 && data[b.last] == 0)
			b.last--;
		if (b.last < levels - 1)
			b.last++;
	}
	totals(b, data, zoom);
	std::string o = header();
	std::vector<int64_t> edges(n);
	int top = static_cast<int>(llquantize_edges(a, edges.data(), n));
	if (b.first == 0) {
		o += strf("%16s ", strf("< %lld", static_cast<long long>(edges[0])).c_str());
		o += quantline(data[0], normal, b.total, b.positives, b.negatives);
	}
	for (int bin = std::max(b.first, 1); bin < top && bin <= b.last; bin++) {
		o += strf("%16lld ", static_cast<long long>(edges[static_cast<size_t>(bin)]));
		o += quantline(data[bin], normal, b.total, b.positives, b.negatives);
	}
	if (b.last < top || top >= levels)
		return o;
	o += strf("%16s ",
		  strf(">= %lld", static_cast<long long>(edges[static_cast<size_t>(top)])).c_str());
	o += quantline(data[top], normal, b.total, b.positives, b.negatives);
	return o;
}

// dt_print_quantize_packed()
std::string quantize_packed(const int64_t *data, const minmax &mm, bool zoom, int encoding)
{
	int min = mm.minbin, max = mm.maxbin;
	if (min != 0 && min != static_cast<int>(DTRACE_QUANTIZE_ZEROBUCKET))
		min--;
	if (max < static_cast<int>(DTRACE_QUANTIZE_NBUCKETS) - 1)
		max++;
	long long minval = DTRACE_QUANTIZE_BUCKETVAL(static_cast<size_t>(min));
	long long maxval = DTRACE_QUANTIZE_BUCKETVAL(static_cast<size_t>(max));
	std::string o = strf(" %*lld :", ndigits(minval), minval);
	long double total = 0, count = 0;
	for (int i = min; i <= max; i++) {
		add_total(total, data[i], zoom);
		count += static_cast<long double>(data[i]);
	}
	for (int i = min; i <= max; i++)
		o += packed_char(static_cast<long double>(data[i]), total, encoding);
	o += strf(": %*lld | %lld\n", -ndigits(maxval), maxval, static_cast<long long>(count));
	return o;
}

// dt_print_lquantize_packed()
std::string lquantize_packed(const aggregation &a, const int64_t *data, size_t n, bool zoom,
			    int encoding)
{
	int64_t base = param(a, 0, 0), step = param(a, 2, 1);
	int64_t levels = lquantize_levels(a);
	if (levels == 0 || n != static_cast<size_t>(levels) + 2)
		return {};
	std::string o = strf("%8s :", strf("< %d", static_cast<int>(base)).c_str());
	long double total = 0, count = 0;
	for (size_t i = 0; i < n; i++) {
		add_total(total, data[i], zoom);
		count += static_cast<long double>(data[i]);
	}
	for (size_t i = 0; i < n; i++)
		o += packed_char(static_cast<long double>(data[i]), total, encoding);
	o += strf(": %-8s | %lld\n", strf(">= %d", static_cast<int>(base + levels * step)).c_str(),
		  static_cast<long long>(count));
	return o;
}

// dt_print_quanthdr() / dt_print_quanthdr_packed()
std::string packed_header(const aggregation &a, int width, bool hist, const minmax &mm)
{
	if (hist)
		return strf("\n%*s %41s %-9s\n", width ? width : 16, width ? "key" : "value",
			    "------------- Distribution -------------", "count");
	int min = mm.minbin, max = mm.maxbin, minwidth, maxwidth;
	if (a.func == DTRACEAGG_QUANTIZE) {
		if (min != 0 && min != static_cast<int>(DTRACE_QUANTIZE_ZEROBUCKET))
			min--;
		if (max < static_cast<int>(DTRACE_QUANTIZE_NBUCKETS) - 1)
			max++;
		minwidth = ndigits(DTRACE_QUANTIZE_BUCKETVAL(static_cast<size_t>(min)));
		maxwidth = ndigits(DTRACE_QUANTIZE_BUCKETVAL(static_cast<size_t>(max)));
	} else {
		maxwidth = 8;
		minwidth = maxwidth - 1;
		max++;
	}
	std::string o = strf("\n%*s %*s .", width, width > 0 ? "key" : "", minwidth, "min");
	for (int i = min; i <= max; i++)
		o += "-";
	return o + strf(". %*s | count\n", -maxwidth, "max");
}

} // namespace dt::consumer_impl
