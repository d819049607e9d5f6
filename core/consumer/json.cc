// SPDX-License-Identifier: MIT
//
// consumer/json.cc - `-x oformat=json` (json.hpp; the schema is
// docs/json.md): records as JSON Lines, built as Poco::JSON objects in
// the order their fields are documented and written one per line.
//
//   datum ─► json_value()   integers as numbers, pointers and addresses as
//                           "0x..." strings, strings as UTF-8 strings, stacks
//                           as frame arrays, by-value data as byte arrays
//   aggregation ─► agg_object()   keys, then the value under the function's
//                                 name, or "buckets" for the quantizations
#include "json.hpp"

#include "quantize.hpp"
#include "util/bytes.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSONString.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <sstream>

namespace dt::consumer_impl {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;
using k = value_type::kind;

// Poco's writer escapes quotes, backslashes and control characters but
// copies other bytes as they are, so a string that is not UTF-8 (a kernel
// buffer, a path in another encoding) would make the line invalid JSON;
// nor does the standard library validate UTF-8. Hence this check, after
// the Unicode standard's table of well-formed byte sequences (ch. 3,
// table 3-7).
std::string utf8_valid(std::string_view s)
{
	static const char k_replacement[] = "\xef\xbf\xbd"; // U+FFFD
	std::string o;
	o.reserve(s.size());
	size_t i = 0;
	while (i < s.size()) {
		auto b = [&](size_t j) { return static_cast<unsigned char>(s[j]); };
		unsigned char c = b(i);
		size_t n = 0;
		unsigned char lo = 0x80, hi = 0xbf; // the second byte's range
		if (c < 0x80)
			n = 1;
		else if (c >= 0xc2 && c <= 0xdf)
			n = 2;
		else if (c >= 0xe0 && c <= 0xef) {
			n = 3;
			if (c == 0xe0)
				lo = 0xa0; // not overlong
			else if (c == 0xed)
				hi = 0x9f; // not a surrogate
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 4;
			if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f; // at most U+10FFFF
		}
		bool ok = n > 0 && i + n <= s.size();
		for (size_t j = 1; ok && j < n; j++) {
			unsigned char cj = b(i + j);
			ok = j == 1 ? cj >= lo && cj <= hi : cj >= 0x80 && cj <= 0xbf;
		}
		if (!ok) {
			o += k_replacement;
			i++;
			continue;
		}
		o.append(s.substr(i, n));
		i += n;
	}
	return o;
}

namespace {

std::string hex(uint64_t v)
{
	return strf("0x%llx", static_cast<unsigned long long>(v));
}

// A NUL-terminated (or full) string field, valid UTF-8.
std::string text_of(const uint8_t *p, size_t n)
{
	const char *c = reinterpret_cast<const char *>(p);
	return utf8_valid(std::string_view(c, strnlen(c, n)));
}

Array::Ptr byte_array(const uint8_t *p, size_t n)
{
	Array::Ptr a = new Array;
	for (size_t i = 0; i < n; i++)
		a->add(static_cast<unsigned>(p[i]));
	return a;
}

Var integer(const uint8_t *p, uint32_t size, bool is_signed)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return Var(byte_array(p, size));
	if (is_signed)
		return Var(static_cast<Poco::Int64>(bytes::load_int(p, size)));
	return Var(static_cast<Poco::UInt64>(bytes::load_uint(p, size)));
}

// FreeBSD's frame object: symbol (as dtrace prints it), module, name,
// offset; and the address, which FreeBSD leaves out.
Array::Ptr frames(state &st, const datum &d)
{
	Array::Ptr a = new Array;
	for (const stack_frame &f : stack_frames(st, d)) {
		Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
		o->set("symbol", utf8_valid(f.text));
		auto s = f.user ? st.syms.user(f.pid, f.pc) : st.syms.kernel(f.pc);
		if (s) {
			o->set("module", utf8_valid(s->object));
			if (!s->name.empty()) {
				o->set("name", utf8_valid(s->name));
				o->set("offset", static_cast<Poco::UInt64>(f.pc - s->value));
			}
		}
		o->set("address", hex(f.pc));
		if (f.annotated)
			o->set("annotation", utf8_valid(f.annotation));
		a->add(o);
	}
	return a;
}

// What print_symbolic() prints, without its padding.
std::string symbolic(state &st, const datum &d)
{
	return utf8_valid(print_symbolic(st, d, "%s"));
}

// One value as recorded (a trace() argument, a printf() argument, a key).
Var json_value(state &st, const datum &d)
{
	if (!d.p)
		return Var();
	switch (d.kind) {
	case k::integer: return integer(d.p, d.size, d.is_signed);
	case k::pointer: return Var(hex(bytes::load_uint(d.p, d.size == 4 ? 4 : 8)));
	case k::string: return Var(text_of(d.p, d.size));
	case k::bytes: return Var(byte_array(d.p, d.size));
	case k::stack:
	case k::ustack: return Var(frames(st, d));
	case k::sym:
	case k::mod:
	case k::usym:
	case k::umod:
	case k::uaddr: return Var(symbolic(st, d));
	}
	return Var();
}

// The key of trace()'s item: FreeBSD names a stack's frames and the
// symbolic actions' values after the action.
const char *trace_key(k kind)
{
	switch (kind) {
	case k::stack: return "stack-frames";
	case k::ustack: return "ustack-frames";
	case k::sym: return "sym";
	case k::mod: return "mod";
	case k::usym: return "usym";
	case k::umod: return "umod";
	case k::uaddr: return "uaddr";
	default: return "value";
	}
}

// print(): the value by its type; a struct or union as an object of its
// members, in declaration order.
Var typed_value(const uint8_t *p, size_t len, const value_type &t)
{
	if (!t.members.empty()) {
		Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
		for (const auto &m : t.members) {
			if (m.offset + m.type.size > len)
				break;
			o->set(m.name, typed_value(p + m.offset, len - m.offset, m.type));
		}
		return Var(o);
	}
	size_t n = std::min<size_t>(t.size, len);
	switch (t.k) {
	case k::string: return Var(text_of(p, n));
	case k::pointer: return Var(hex(bytes::load_uint(p, n == 4 ? 4 : 8)));
	case k::integer:
		if (n == t.size)
			return integer(p, t.size, t.is_signed);
		break;
	default: break;
	}
	return Var(byte_array(p, n));
}

const char *agg_function(uint16_t f)
{
	switch (f) {
	case DTRACEAGG_COUNT: return "count";
	case DTRACEAGG_MAX: return "max";
	case DTRACEAGG_MIN: return "min";
	case DTRACEAGG_SUM: return "sum";
	case DTRACEAGG_AVG: return "avg";
	case DTRACEAGG_STDDEV: return "stddev";
	case DTRACEAGG_QUANTIZE: return "quantize";
	case DTRACEAGG_LQUANTIZE: return "lquantize";
	case DTRACEAGG_LLQUANTIZE: return "llquantize";
	default: return "unknown";
	}
}

void bucket(Array &a, int64_t value, int64_t min, int64_t max, int64_t count, uint64_t normal)
{
	if (count == 0)
		return;
	Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
	o->set("value", static_cast<Poco::Int64>(value));
	o->set("min", static_cast<Poco::Int64>(min));
	o->set("max", static_cast<Poco::Int64>(max));
	o->set("count", static_cast<Poco::Int64>(normal > 1 ? div_normal(count, normal) : count));
	a.add(o);
}

// The buckets that hold data, each with its inclusive range; value is
// the number in the text table's value column (for its "< N" and ">= N"
// rows, N). Ranges as illumos' dtrace_aggregate_quantize() and friends
// fill them (core/dif/dif_agg.h).
Array::Ptr buckets(const aggregation &a, const int64_t *w, size_t n, uint64_t normal)
{
	Array::Ptr b = new Array;
	if (a.func == DTRACEAGG_QUANTIZE) {
		const size_t zero = DTRACE_QUANTIZE_ZEROBUCKET;
		for (size_t i = 0; i < n && i < DTRACE_QUANTIZE_NBUCKETS; i++) {
			int64_t v = DTRACE_QUANTIZE_BUCKETVAL(i);
			int64_t lo, hi;
			if (i < zero) { // negative: (previous bucket, v]
				lo = i == 0 ? INT64_MIN : DTRACE_QUANTIZE_BUCKETVAL(i - 1) + 1;
				hi = v;
			} else { // zero and positive: [v, next bucket)
				lo = v;
				hi = i == zero ? 0
				     : i + 1 < DTRACE_QUANTIZE_NBUCKETS
					     ? DTRACE_QUANTIZE_BUCKETVAL(i + 1) - 1
					     : INT64_MAX;
			}
			bucket(*b, v, lo, hi, w[i], normal);
		}
	} else if (a.func == DTRACEAGG_LQUANTIZE) {
		int64_t base = a.params.empty() ? 0 : a.params[0];
		int64_t step = a.params.size() > 2 ? a.params[2] : 1;
		int levels = lquantize_levels(a);
		if (levels == 0 || n != static_cast<size_t>(levels) + 2)
			return b;
		int64_t limit = base + levels * step;
		bucket(*b, base, INT64_MIN, base - 1, w[0], normal);
		for (int i = 1; i <= levels; i++) {
			int64_t lo = base + (i - 1) * step;
			bucket(*b, lo, lo, lo + step - 1, w[i], normal);
		}
		bucket(*b, limit, limit, INT64_MAX, w[levels + 1], normal);
	} else if (a.func == DTRACEAGG_LLQUANTIZE) {
		std::vector<int64_t> edges(n);
		size_t top = llquantize_edges(a, edges.data(), n);
		if (n == 0 || top >= n)
			return b;
		bucket(*b, edges[0], INT64_MIN, edges[0] - 1, w[0], normal);
		for (size_t i = 1; i < top; i++)
			bucket(*b, edges[i], edges[i], edges[i + 1] - 1, w[i], normal);
		bucket(*b, edges[top], edges[top], INT64_MAX, w[top], normal);
	}
	return b;
}

// One entry's value under its function's name (FreeBSD's layout), as
// the text table prints it; the quantizations' as "buckets".
void agg_value(Object &o, const aggregation &a, const std::vector<int64_t> &v, uint64_t normal)
{
	if (auto x = scalar_of(a, v, normal))
		o.set(agg_function(a.func), static_cast<Poco::Int64>(*x));
	else
		o.set("buckets", buckets(a, v.data(), v.size(), normal));
}

// An aggregation and its entries, sorted as printa() sorts them.
Object::Ptr agg_object(state &st, uint32_t id)
{
	Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
	const aggregation *a = st.aggs.desc(id);
	if (!a)
		return o;
	o->set("aggregation-name", utf8_valid(a->name));
	o->set("function", agg_function(a->func));
	Array::Ptr data = new Array;
	uint64_t normal = st.aggs.normal(id);
	for (const agg_entry *e : st.aggs.sorted({id}, sorting(st))) {
		Object::Ptr row = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
		Array::Ptr keys = new Array;
		for (const datum &d : key_datums(*a, e->key))
			keys->add(json_value(st, d));
		row->set("keys", keys);
		agg_value(*row, *a, e->value, normal);
		data->add(row);
	}
	o->set("aggregation-data", data);
	return o;
}

void probe_fields(Object &o, const enabled_probe *ep)
{
	probe_desc pd;
	if (ep)
		pd = ep->probe;
	o.set("id", static_cast<Poco::UInt64>(ep ? ep->probe_id : 0));
	o.set("provider", utf8_valid(pd.provider));
	o.set("module", utf8_valid(pd.mod));
	o.set("function", utf8_valid(pd.func));
	o.set("name", utf8_valid(pd.name));
}

} // namespace

struct json_out::impl {
	state &st;
	Object::Ptr rec;
	Array::Ptr items;

	explicit impl(state &s) : st(s) {}

	// One document, one line: Poco's compact form has no newlines (they
	// are escaped in strings).
	void write(const Object &o) const
	{
		std::ostringstream ss;
		o.stringify(ss);
		std::string line = ss.str();
		line += '\n';
		std::fwrite(line.data(), 1, line.size(), st.out);
	}

	void item(const std::string &key, const Var &v)
	{
		if (!items)
			return;
		Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
		o->set(key, v);
		items->add(o);
	}
};

json_out::json_out(state &st) : impl_(std::make_unique<impl>(st))
{
}

json_out::~json_out() = default;

void json_out::begin_firing(const enabled_probe &ep, uint32_t cpu, uint64_t timestamp)
{
	impl_->rec = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
	impl_->items = new Array;
	Object &o = *impl_->rec;
	o.set("type", "probe");
	if (timestamp)
		o.set("timestamp", static_cast<Poco::UInt64>(timestamp));
	o.set("cpu", cpu);
	probe_fields(o, &ep);
	o.set("output", impl_->items);
}

void json_out::end_firing(bool quiet)
{
	if (impl_->rec && (!quiet || impl_->items->size() > 0))
		impl_->write(*impl_->rec);
	impl_->rec = nullptr;
	impl_->items = nullptr;
}

void json_out::trace(const datum &d)
{
	impl_->item(trace_key(d.kind), json_value(impl_->st, d));
}

void json_out::printf(const std::string &message, std::span<const datum> args)
{
	if (!impl_->items)
		return;
	Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
	o->set("message", utf8_valid(message));
	Array::Ptr a = new Array;
	for (const datum &d : args)
		a->add(json_value(impl_->st, d));
	o->set("args", a);
	impl_->items->add(o);
}

void json_out::print(const datum &d, const value_type &t)
{
	if (!d.p)
		return;
	Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
	o->set("type", utf8_valid(t.name));
	if (t.k == k::bytes && t.members.empty())
		o->set("value", byte_array(d.p, d.size));
	else
		o->set("value", typed_value(d.p, d.size, t));
	impl_->item("print", Var(o));
}

void json_out::tracemem(const uint8_t *p, size_t n)
{
	impl_->item("tracemem", Var(byte_array(p, n)));
}

void json_out::system(const std::string &command)
{
	impl_->item("system", Var(utf8_valid(command)));
}

void json_out::printa(const std::vector<uint32_t> &ids, const std::string *message)
{
	if (!impl_->items)
		return;
	Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
	if (message)
		o->set("message", utf8_valid(*message));
	Array::Ptr a = new Array;
	for (uint32_t id : ids) {
		a->add(agg_object(impl_->st, id));
		impl_->st.aggs.set_printed(id);
	}
	o->set("printa", a);
	impl_->items->add(o);
}

void json_out::aggregation(uint32_t id)
{
	Object::Ptr agg = agg_object(impl_->st, id);
	Object o(Poco::JSON_PRESERVE_KEY_ORDER);
	o.set("type", "aggregation");
	for (const auto &name : {"aggregation-name", "function", "aggregation-data"})
		o.set(name, agg->get(name));
	impl_->write(o);
	impl_->st.aggs.set_printed(id);
}

void json_out::fault(const fault_report &f, const std::string &message)
{
	Object o(Poco::JSON_PRESERVE_KEY_ORDER);
	o.set("type", "error");
	o.set("fault", fault_string(f.code));
	if (f.code == DTRACEFLT_BADADDR || f.code == DTRACEFLT_BADALIGN)
		o.set("address", hex(f.illval));
	o.set("epid", f.epid);
	probe_fields(o, impl_->st.ep(f.epid));
	if (f.action == 0)
		o.set("action", "predicate");
	else
		o.set("action", f.action);
	if (f.offset != -1)
		o.set("dif-offset", static_cast<Poco::Int64>(f.offset));
	o.set("message", utf8_valid(message));
	impl_->write(o);
}

void json_out::drop(std::string_view kind, uint64_t n, uint32_t cpu, const std::string &message)
{
	Object o(Poco::JSON_PRESERVE_KEY_ORDER);
	o.set("type", "drop");
	o.set("kind", std::string(kind));
	o.set("count", static_cast<Poco::UInt64>(n));
	if (kind == "principal" || kind == "aggregation")
		o.set("cpu", cpu);
	o.set("message", utf8_valid(message));
	impl_->write(o);
}

void json_out::end(int status)
{
	Object o(Poco::JSON_PRESERVE_KEY_ORDER);
	o.set("type", "end");
	o.set("status", status);
	impl_->write(o);
}

} // namespace dt::consumer_impl
