// SPDX-License-Identifier: MIT
//
// consumer/folded.cc - `-x stackfmt=folded`: an aggregation keyed by
// stacks printed as the folded lines that FlameGraph's flamegraph.pl,
// inferno and speedscope read, the lines Brendan Gregg's stackcollapse.pl
// makes of DTrace's text output:
//
//   @[execname, stack(), ustack()] = count();
//
//   bash;_start;main;read;entry_SYSCALL_64;do_syscall_64;ksys_read 12
//   └key┘└── user frames, root first ──┘└── kernel frames, root first ─┘
//
// Keys that are not stacks come first, in key order; then the user stacks
// (ustack(), jstack()), then the kernel stacks, each root first: what
// stackcollapse.pl makes of DTrace's usual @[stack(), ustack()], whose
// printed key it reverses (kernel frames are printed above user frames),
// whatever the key order (several stacks of one kind: the reverse of their
// key order, as stackcollapse.pl). Frames lose their
// +offset and C++ argument lists (stackcollapse.pl's rules), so lines that
// become equal are one line, their counts added; lines are sorted as
// stackcollapse.pl sorts them. The count is the value the text table
// prints (count, sum, avg, min, max, stddev); the quantizations keep their
// text tables.
#include "internal.hpp"
#include "util/bytes.hpp"

#include <map>

namespace dt::consumer_impl {

namespace {

using k = value_type::kind;

bool is_stack(k kind)
{
	return kind == k::stack || kind == k::ustack;
}

// stackcollapse.pl: leading blanks, "+offset" and C++ arguments or
// template parameters go; an empty frame is "-". A ';' or a line break
// would split the line: each becomes '_'.
std::string fold_frame(std::string f)
{
	size_t b = f.find_first_not_of(" \t");
	f.erase(0, b == std::string::npos ? f.size() : b);
	size_t plus = f.rfind('+');
	if (plus != std::string::npos)
		f.erase(plus);
	size_t cut = f.find_first_of("(<", 2);
	if (cut != std::string::npos)
		f.erase(cut);
	for (char &c : f)
		if (c == ';' || c == '\n' || c == '\r')
			c = '_';
	return f.empty() ? "-" : f;
}

// A key that is not a stack, as one frame.
std::string key_frame(state &st, const datum &d)
{
	switch (d.kind) {
	case k::string: {
		const char *c = reinterpret_cast<const char *>(d.p);
		return fold_frame(std::string(c, strnlen(c, d.size)));
	}
	case k::sym:
	case k::mod:
	case k::usym:
	case k::umod:
	case k::uaddr: return fold_frame(print_symbolic(st, d, "%s"));
	case k::integer:
		if (d.size == 1 || d.size == 2 || d.size == 4 || d.size == 8)
			return d.is_signed ? std::to_string(bytes::load_int(d.p, d.size))
					   : std::to_string(bytes::load_uint(d.p, d.size));
		break;
	case k::pointer:
		return strf("0x%llx", static_cast<unsigned long long>(bytes::load_uint(d.p, 8)));
	default: break;
	}
	std::string o = "0x";
	for (uint32_t i = 0; i < d.size; i++)
		o += strf("%02x", static_cast<unsigned>(d.p[i]));
	return o;
}

} // namespace

bool print_folded(state &st, uint32_t aggid)
{
	const aggregation *a = st.aggs.desc(aggid);
	if (!a || a->func == DTRACEAGG_QUANTIZE || a->func == DTRACEAGG_LQUANTIZE ||
	    a->func == DTRACEAGG_LLQUANTIZE)
		return false;
	bool stacks = false;
	for (const value_type &t : a->keys)
		stacks = stacks || is_stack(t.k);
	if (!stacks)
		return false;
	uint64_t normal = st.aggs.normal(aggid);
	std::map<std::string, long long> lines;
	for (const agg_entry *e : st.aggs.sorted({aggid}, sorting(st))) {
		auto keys = key_datums(*a, e->key);
		std::string line;
		auto add = [&line](const std::string &f) {
			if (!line.empty())
				line += ';';
			line += f;
		};
		for (const datum &d : keys)
			if (!is_stack(d.kind))
				add(key_frame(st, d));
		// User code calls into the kernel: user stacks, then kernel ones.
		for (k kind : {k::ustack, k::stack}) {
			for (auto d = keys.rbegin(); d != keys.rend(); ++d) {
				if (d->kind != kind)
					continue;
				auto frames = stack_frames(st, *d);
				for (auto f = frames.rbegin(); f != frames.rend(); ++f)
					add(fold_frame(f->text));
			}
		}
		lines[line] += scalar_of(*a, e->value, normal).value_or(0);
	}
	for (const auto &[line, count] : lines)
		st.put(line + " " + std::to_string(count) + "\n");
	st.aggs.set_printed(aggid);
	return true;
}

} // namespace dt::consumer_impl
