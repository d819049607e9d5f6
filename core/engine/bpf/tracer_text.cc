// SPDX-License-Identifier: MIT
//
// tracer_text.cc - the tracing machinery's kernel text (see tracer_text.hpp).
#include "tracer_text.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string_view>

namespace dt::engines::bpf {

namespace {

constexpr std::string_view k_run = "bpf_trace_run";
constexpr std::string_view k_probe = "__bpf_trace_";
constexpr std::string_view k_iter = "__traceiter_";

bool tracer_name(std::string_view n)
{
	return n.starts_with(k_run) || n.starts_with(k_probe) || n.starts_with(k_iter);
}

bool reads_stack_var(const difo &d)
{
	return std::ranges::any_of(d.text, [](dif_instr_t i) {
		return (DIF_INSTR_OP(i) == DIF_OP_LDGS || DIF_INSTR_OP(i) == DIF_OP_LDGA) &&
		       (DIF_INSTR_VAR(i) == DIF_VAR_STACKDEPTH ||
			DIF_INSTR_VAR(i) == DIF_VAR_CALLER);
	});
}

bool reads_stack(const record &r)
{
	return r.type.k == value_type::kind::stack || reads_stack_var(r.expr);
}

} // namespace

bool reads_kernel_stack(const clause &c)
{
	if (c.predicate && reads_stack_var(*c.predicate))
		return true;
	return std::ranges::any_of(c.actions, [](const action &a) {
		return a.kind == DTRACEACT_STACK || std::ranges::any_of(a.args, reads_stack) ||
		       std::ranges::any_of(a.keys, reads_stack);
	});
}

tracer_text::tracer_text(std::string path) : path_(std::move(path))
{
	if (path_.empty()) {
		const char *p = std::getenv("DTRACE_KALLSYMS_PATH");
		path_ = p && *p ? p : "/proc/kallsyms";
	}
}

// "ffffffff814ba320 T bpf_trace_run1" (a module's with "\t[mod]" after).
void tracer_text::load()
{
	loaded_ = true;
	std::ifstream in(path_);
	std::string line;
	while (std::getline(in, line)) {
		std::string_view l(line);
		size_t sp = l.find(' ');
		if (sp == std::string_view::npos || sp + 3 > l.size() || l[sp + 2] != ' ')
			continue;
		char kind = l[sp + 1];
		if (kind != 't' && kind != 'T')
			continue;
		uint64_t addr = std::strtoull(line.c_str(), nullptr, 16);
		if (addr == 0)
			continue; // kptr_restrict: no addresses
		text_.push_back(addr);
		std::string_view name = l.substr(sp + 3);
		name = name.substr(0, name.find_first_of(" \t"));
		if (tracer_name(name))
			named_.emplace(std::string(name), addr);
	}
	std::sort(text_.begin(), text_.end());
}

// The next text symbol's address above addr, or addr + 1 past the last.
uint64_t tracer_text::end_of(uint64_t addr) const
{
	auto it = std::upper_bound(text_.begin(), text_.end(), addr);
	return it == text_.end() ? addr + 1 : *it;
}

std::vector<text_range> tracer_text::of(const std::string &tp)
{
	if (!loaded_)
		load();
	std::vector<text_range> v;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int n = 1; n <= 12; n++) {
		auto it = named_.find(std::string(k_run) + std::to_string(n));
		if (it == named_.end())
			continue;
		lo = std::min(lo, it->second);
		hi = std::max(hi, end_of(it->second));
	}
	if (hi > lo)
		v.emplace_back(lo, hi - lo);
	for (std::string_view prefix : {k_probe, k_iter}) {
		auto it = named_.find(std::string(prefix) + tp);
		if (it != named_.end())
			v.emplace_back(it->second, end_of(it->second) - it->second);
	}
	return v;
}

} // namespace dt::engines::bpf
