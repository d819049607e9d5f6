// SPDX-License-Identifier: MIT
//
// consumer/consumer.cc - dt::consumer (dtrace/consumer.hpp): the
// engine_sink that turns firings, aggregation deltas, faults and drops into
// DTrace's output; finish() is what dtrace(1) prints once tracing stopped.
#include "internal.hpp"
#include "json.hpp"

#include <dtrace/options.hpp>

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace dt {

using namespace consumer_impl;

namespace consumer_impl {

state::state(const program &p, std::vector<enabled_probe> e, consumer_settings s)
	: prog(p), eps(std::make_move_iterator(e.begin()), std::make_move_iterator(e.end())),
	  settings(std::move(s)), out(settings.out), aggs(p)
{
	for (size_t i = 0; i < eps.size(); i++)
		epid_index[eps[i].epid] = i;
	opt.quiet = settings.quiet;
	for (const auto &[name, value] : prog.options)
		set_option(name, value);
	cli_quiet = opt.quiet;
	cli_flowindent = opt.flowindent;
	if (!out)
		out = stdout;
	aggs.normalize_key = [this](const aggregation &a, std::vector<uint8_t> &key) {
		using k = value_type::kind;
		for (size_t i = 0; i < a.keys.size() && i < a.key_offsets.size(); i++) {
			const value_type &t = a.keys[i];
			size_t off = a.key_offsets[i];
			// A ustack() capture becomes its pcs here, before keys
			// compare: one entry per stack, not per firing.
			if (t.k == k::ustack && off + t.size <= key.size()) {
				unwind.rewrite(key.data() + off, t.size,
					       t.frames ? t.frames : ustack_frames(*this));
				continue;
			}
			bool user = t.k == k::usym || t.k == k::umod;
			if ((t.k != k::sym && t.k != k::mod && !user) ||
			    off + (user ? 16 : 8) > key.size())
				continue;
			uint64_t v, pid = 0;
			std::memcpy(&v, key.data() + off + (user ? 8 : 0), 8);
			if (user)
				std::memcpy(&pid, key.data() + off, 8);
			auto upid = static_cast<pid_t>(pid);
			v = t.k == k::sym    ? syms.ksym_start(v)
			    : t.k == k::mod  ? syms.kmod_start(v)
			    : t.k == k::usym ? syms.usym_start(upid, v)
					     : syms.umod_start(upid, v);
			std::memcpy(key.data() + off + (user ? 8 : 0), &v, 8);
		}
	};
	if (!settings.err)
		settings.err = stderr;
	if (opt.json)
		json = std::make_unique<json_out>(*this);
}

state::~state() = default;

void state::put(const std::string &s) const
{
	if (capture)
		*capture += s;
	else if (!s.empty())
		std::fwrite(s.data(), 1, s.size(), out);
}

const enabled_probe *state::ep(uint32_t epid) const
{
	auto it = epid_index.find(epid);
	return it == epid_index.end() ? nullptr : &eps[it->second];
}

const fmt::format &state::format_of(const action &a)
{
	auto it = formats.find(&a);
	if (it != formats.end())
		return it->second;
	fmt::format f;
	try {
		f = fmt::parse(a.format);
	} catch (const fmt::format_error &) {
		// The compiler checked it; an unparsable format prints as text.
		f.text = a.format;
		f.pieces.push_back({a.format, nullptr, 0, 0, 0});
	}
	return formats.emplace(&a, std::move(f)).first->second;
}

// The options that change output (illumos dt_options.c names). A flag is
// on unless dt_opt_runtime()'s negative words left it unset (the option
// table's option_unsets(); "0" sets it, as in illumos, where only
// DTRACEOPT_UNSET is off): the same reading as the compiler and the
// session give the program's options.
bool state::set_option(const std::string &name, const std::string &value)
{
	bool on = !option_unsets(name, value);
	auto num = [&]() { return static_cast<int>(std::strtol(value.c_str(), nullptr, 0)); };
	if (name == "quiet")
		opt.quiet = on;
	else if (name == "flowindent")
		opt.flowindent = on;
	else if (name == "aggsortkey")
		opt.aggsortkey = on;
	else if (name == "aggsortrev")
		opt.aggsortrev = on;
	else if (name == "aggpack")
		opt.aggpack = on;
	else if (name == "agghist")
		opt.agghist = on;
	else if (name == "aggzoom")
		opt.aggzoom = on;
	else if (name == "rawbytes")
		opt.rawbytes = on;
	else if (name == "noresolve")
		opt.noresolve = on;
	else if (name == "droptags")
		opt.droptags = on;
	else if (name == "aggsortpos")
		opt.aggsortpos = num();
	else if (name == "aggsortkeypos")
		opt.aggsortkeypos = num();
	else if (name == "encoding")
		opt.encoding = value == "ascii" ? 1 : value == "utf8" ? 2 : 0;
	else if (name == "stackindent")
		opt.stackindent = num();
	else if (name == "oformat")
		opt.json = value == "json";
	else if (name == "stackfmt")
		opt.folded = value == "folded";
	else if (name == "switchrate")
		switchrate = resolve_options({{name, value}}).switchrate;
	else
		return false;
	return true;
}

} // namespace consumer_impl

struct consumer::impl {
	state st;
	impl(const program &p, std::vector<enabled_probe> e, consumer_settings s)
		: st(p, std::move(e), std::move(s))
	{
	}
};

consumer::consumer(const program &p, std::vector<enabled_probe> eps, consumer_settings s)
	: impl_(std::make_unique<impl>(p, std::move(eps), std::move(s)))
{
}

consumer::~consumer()
{
	if (impl_ && impl_->st.stdout_fd >= 0)
		::close(impl_->st.stdout_fd);
}

void consumer::add_probes(const std::vector<enabled_probe> &eps)
{
	state &st = impl_->st;
	for (const enabled_probe &ep : eps) {
		if (st.epid_index.contains(ep.epid))
			continue;
		st.epid_index[ep.epid] = st.eps.size();
		st.eps.push_back(ep);
	}
}

void consumer::set_system_wait(std::function<void()> f)
{
	impl_->st.system_wait = std::move(f);
}

void consumer::records(std::span<const uint8_t> buf, uint32_t cpu)
{
	consume_records(impl_->st, buf, cpu);
}

void consumer::aggregation(const agg_data &d)
{
	impl_->st.aggs.merge(d);
}

namespace {

// A message for the JSON record: without "dtrace: " and the newline.
std::string bare_message(std::string m)
{
	if (m.rfind("dtrace: ", 0) == 0)
		m.erase(0, 8);
	while (!m.empty() && m.back() == '\n')
		m.pop_back();
	return m;
}

} // namespace

void consumer::fault(const fault_report &f)
{
	auto &st = impl_->st;
	if (st.json) {
		st.json->fault(f, bare_message(fault_message(st, f)));
		return;
	}
	std::fflush(st.out);
	std::fputs(fault_message(st, f).c_str(), st.settings.err);
}

void consumer::drops(std::string_view kind, uint64_t n, uint32_t cpu)
{
	if (n == 0)
		return;
	if (impl_->st.json) {
		impl_->st.json->drop(kind, n, cpu, bare_message(drop_message(kind, n, cpu)));
		return;
	}
	std::fflush(impl_->st.out);
	std::fputs(drop_message(kind, n, cpu, impl_->st.opt.droptags).c_str(),
		   impl_->st.settings.err);
}

std::optional<int> consumer::exit_status() const
{
	return impl_->st.exit_status;
}

std::optional<uint64_t> consumer::switchrate() const
{
	return impl_->st.switchrate;
}

void consumer::note_process(int32_t pid)
{
	impl_->st.syms.refresh_process(pid);
	impl_->st.unwind.note_process(pid);
}

std::string consumer::metrics(bool openmetrics)
{
	return metrics_text(impl_->st, openmetrics);
}

bool consumer::bare_output() const
{
	return impl_->st.opt.json || impl_->st.opt.folded;
}

void consumer::finish()
{
	auto &st = impl_->st;
	if (st.settings.refresh)
		st.settings.refresh();
	// Output for programs (JSON Lines, folded stacks) has no blank line.
	if (!bare_output())
		st.put("\n");
	print_unprinted(st);
	if (st.json)
		st.json->end(st.exit_status.value_or(0));
	std::fflush(st.out);
}

} // namespace dt
