// SPDX-License-Identifier: MIT
// program/options.cc - the option table and its reading (dtrace/options.hpp).
#include <dtrace/options.hpp>

#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>

namespace dt {
namespace {

constexpr uint64_t k_max = UINT64_MAX;
constexpr uint64_t k_max32 = UINT32_MAX;
constexpr uint64_t k_sec = 1000000000;

using ok = option_kind;
using op = option_phase;
constexpr uint8_t k_engines = k_read_engines;
constexpr uint8_t k_cons = k_read_consumer;

// illumos dt_options.c: _dtrace_ctoptions, _dtrace_rtoptions and
// _dtrace_drtoptions, plus this implementation's engine and maxframes.
// Defaults are illumos' (dtrace.c's dtrace_*_default) as the engines used
// them; cleanrate 0 leaves it to the engine (dtrace.ko: 101 Hz).
constexpr option_info k_options[] = {
	// name            kind         phase        readers  default  min  max
	{"aggpercpu", ok::runtime, op::run, 0, 0, 0, k_max},
	{"aggrate", ok::rate, op::run, k_read_bpf | k_read_kmod, k_sec, 0, k_max},
	{"aggsize", ok::size, op::run, k_engines, 4 << 20, 0, k_max},
	{"aggsortkey", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"aggsortkeypos", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"aggsortpos", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"aggsortrev", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"aggzoom", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"agghist", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"aggpack", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"amin", ok::text, op::compile, 0, 0, 0, k_max},
	{"argref", ok::text, op::compile, k_read_compiler, 0, 0, k_max},
	{"bufpolicy", ok::policy, op::run, k_engines, 0, 0, 2},
	{"bufresize", ok::resize, op::run, 0, 0, 0, 1},
	{"bufsize", ok::size, op::run, k_engines, 4 << 20, 0, k_max},
	{"cleanrate", ok::rate, op::run, k_read_kmod, 0, 0, k_max},
	{"core", ok::text, op::compile, 0, 0, 0, k_max},
	{"cpp", ok::text, op::compile, 0, 0, 0, k_max},
	{"cpphdrs", ok::text, op::compile, 0, 0, 0, k_max},
	{"cpppath", ok::text, op::compile, 0, 0, 0, k_max},
	{"cpu", ok::runtime, op::run, k_read_user, 0, 0, k_max},
	{"ctypes", ok::text, op::compile, 0, 0, 0, k_max},
	{"defaultargs", ok::text, op::compile, k_read_compiler, 0, 0, k_max},
	{"define", ok::text, op::compile, 0, 0, 0, k_max},
	{"destructive", ok::runtime, op::run, k_engines, 0, 0, k_max},
	{"droptags", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"dtypes", ok::text, op::compile, 0, 0, 0, k_max},
	{"dynvarsize", ok::size, op::run, k_engines, 1 << 20, 0, k_max},
	{"empty", ok::text, op::compile, 0, 0, 0, k_max},
	{"encoding", ok::text, op::run, k_cons, 0, 0, k_max},
	{"engine", ok::text, op::run, k_read_session, 0, 0, k_max},
	{"errtags", ok::text, op::compile, k_read_session, 0, 0, k_max},
	{"evaltime", ok::text, op::run, k_read_session, 0, 0, k_max},
	{"flowindent", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"grabanon", ok::runtime, op::run, 0, 0, 0, k_max},
	{"incdir", ok::text, op::compile, 0, 0, 0, k_max},
	{"iregs", ok::text, op::compile, 0, 0, 0, k_max},
	{"jstackframes", ok::runtime, op::compile, k_read_compiler, 50, 0, k_max32},
	{"jstackstrsize", ok::size, op::compile, k_read_compiler, 512, 0, k_max32},
	{"knodefs", ok::text, op::compile, 0, 0, 0, k_max},
	{"lazyload", ok::text, op::compile, 0, 0, 0, k_max},
	{"ldpath", ok::text, op::compile, 0, 0, 0, k_max},
	{"libdir", ok::text, op::compile, 0, 0, 0, k_max},
	{"linkmode", ok::text, op::compile, 0, 0, 0, k_max},
	{"linktype", ok::text, op::compile, 0, 0, 0, k_max},
	{"maxframes", ok::runtime, op::run, 0, 0, 0, k_max},
	{"metrics", ok::text, op::run, k_read_session, 0, 0, k_max}, // dtrace/metrics.hpp
	{"noresolve", ok::runtime, op::run, 0, 0, 0, k_max},
	{"nolibs", ok::text, op::compile, 0, 0, 0, k_max},
	{"nspec", ok::runtime, op::run, k_engines, 1, 0, k_max32},
	{"oformat", ok::text, op::run, k_cons, 0, 0, k_max},
	{"pgmax", ok::text, op::compile, 0, 0, 0, k_max},
	{"preallocate", ok::size, op::run, 0, 0, 0, k_max},
	{"pspec", ok::text, op::compile, 0, 0, 0, k_max},
	{"quiet", ok::runtime, op::run, k_cons | k_read_session, 0, 0, k_max},
	{"rawbytes", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"specsize", ok::size, op::run, k_engines, 32 << 10, 0, k_max},
	{"stackfmt", ok::text, op::run, k_cons, 0, 0, k_max},
	{"stackframes", ok::runtime, op::compile, k_read_compiler, 20, 0, k_max32},
	{"stackindent", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"statusrate", ok::rate, op::run, 0, k_sec, 0, k_max},
	{"stdc", ok::stdc, op::compile, 0, 0, 0, 3},
	{"strsize", ok::size, op::compile, k_read_compiler | k_engines, 256, 1, k_max32},
	{"switchrate", ok::rate, op::run, k_read_session, k_sec, 0, k_max},
	{"syslibdir", ok::text, op::compile, 0, 0, 0, k_max},
	{"temporal", ok::runtime, op::run, 0, 0, 0, k_max},
	{"tregs", ok::text, op::compile, 0, 0, 0, k_max},
	{"udefs", ok::text, op::compile, 0, 0, 0, k_max},
	{"undef", ok::text, op::compile, 0, 0, 0, k_max},
	{"unodefs", ok::text, op::compile, 0, 0, 0, k_max},
	{"ustackframes", ok::runtime, op::compile, k_read_compiler, 100, 0, k_max32},
	{"verbose", ok::text, op::compile, 0, 0, 0, k_max},
	{"version", ok::text, op::compile, 0, 0, 0, k_max},
	{"zdefs", ok::text, op::compile, 0, 0, 0, k_max},
	{"zone", ok::text, op::run, 0, 0, 0, k_max},
};

// dt_opt_runtime()'s couples: the positive word sets, the negative unsets.
constexpr struct {
	const char *positive, *negative;
} k_couples[] = {{"yes", "no"},	    {"enable", "disable"}, {"enabled", "disabled"},
		 {"true", "false"}, {"on", "off"},	   {"set", "unset"}};

// The values of the enum kinds, by index (buffer_policy's order).
constexpr const char *k_policies[] = {"switch", "fill", "ring"};
constexpr const char *k_resizes[] = {"auto", "manual"};
// dt_opt_stdc(): the ISO C modes of -X (a, c, s, t).
constexpr const char *k_stdcs[] = {"a", "c", "s", "t"};

// Text options whose value is one of a few words (this implementation's:
// docs/json.md). FreeBSD's oformat also takes libxo's xml and html.
constexpr struct {
	const char *name;
	const char *values[3];
} k_text_words[] = {{"oformat", {"text", "json", nullptr}},
		    {"stackfmt", {"text", "folded", nullptr}}};

bool text_value_reads(const option_info &o, const std::string &v)
{
	for (const auto &w : k_text_words) {
		if (std::string_view(o.name) != w.name)
			continue;
		for (const char *value : w.values)
			if (value && v == value)
				return true;
		return false;
	}
	return true;
}

// What a runtime value means: unset (empty or a negative word), set (a
// positive word), or a number.
constexpr uint64_t k_unset = UINT64_MAX;

[[noreturn]] void bad_value(const std::string &name, const std::string &v)
{
	throw option_value_error("invalid value for option " + name + ": " + v);
}

template <size_t N>
std::optional<uint64_t> enum_index(const char *const (&names)[N], const std::string &v)
{
	for (size_t i = 0; i < N; i++)
		if (v == names[i])
			return i;
	return std::nullopt;
}

// dt_opt_runtime(): k_unset for empty or a negative word, 1 for a positive
// word, else the number; nullopt when it does not read.
std::optional<uint64_t> runtime_value(const std::string &v)
{
	if (v.empty())
		return k_unset;
	for (const auto &c : k_couples) {
		if (strcasecmp(v.c_str(), c.positive) == 0)
			return 1;
		if (strcasecmp(v.c_str(), c.negative) == 0)
			return k_unset;
	}
	if (v[0] == '-')
		return std::nullopt;
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(v.c_str(), &end, 0);
	if (errno != 0 || end == v.c_str() || *end != '\0')
		return std::nullopt;
	return n;
}

// The value of NAME=V by its kind; nullopt when it does not read. has_value
// false: the bare NAME, which a size or a rate cannot be.
std::optional<uint64_t> read_value(const option_info &o, const std::string &v, bool has_value)
{
	try {
		switch (o.kind) {
		case ok::text:
			if (!text_value_reads(o, v))
				return std::nullopt;
			return 0;
		case ok::size:
		case ok::rate:
			if (!has_value || v.empty() || v[0] == '-')
				return std::nullopt;
			return o.kind == ok::size ? parse_size_option(o.name, v)
						  : parse_rate_option(o.name, v);
		case ok::runtime: return runtime_value(v);
		case ok::policy: return enum_index(k_policies, v);
		case ok::resize: return enum_index(k_resizes, v);
		case ok::stdc: return enum_index(k_stdcs, v);
		}
	} catch (const option_value_error &) {
	}
	return std::nullopt;
}

// Resolving one map: each option's value, the default when unset.
class resolver {
public:
	explicit resolver(const std::map<std::string, std::string> &opts) : opts_(opts) {}

	// A size, rate, count or enum index, clamped into [min, max].
	uint64_t value(const char *name) const
	{
		const option_info &o = *find_option(name);
		auto it = opts_.find(name);
		uint64_t v = o.dflt;
		if (it != opts_.end()) {
			auto r = read_value(o, it->second, true);
			if (!r)
				bad_value(name, it->second);
			if (*r != k_unset)
				v = *r;
		}
		return std::clamp(v, o.min, o.max);
	}
	uint32_t value32(const char *name) const { return static_cast<uint32_t>(value(name)); }
	// A yes/no flag: set unless absent or given a negative word.
	bool flag(const char *name) const
	{
		auto it = opts_.find(name);
		return it != opts_.end() && !option_unsets(name, it->second);
	}

private:
	const std::map<std::string, std::string> &opts_;
};

} // namespace

uint64_t parse_size_option(const std::string &name, const std::string &v)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(v.c_str(), &end, 0);
	if (errno != 0 || end == v.c_str())
		bad_value(name, v);
	uint64_t mul = 1;
	switch (*end) {
	case 't':
	case 'T': mul <<= 10; [[fallthrough]];
	case 'g':
	case 'G': mul <<= 10; [[fallthrough]];
	case 'm':
	case 'M': mul <<= 10; [[fallthrough]];
	case 'k':
	case 'K':
		mul <<= 10;
		end++;
		break;
	default: break;
	}
	if (*end != '\0')
		bad_value(name, v);
	return n * mul;
}

uint64_t parse_rate_option(const std::string &name, const std::string &v)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(v.c_str(), &end, 10);
	if (errno != 0 || end == v.c_str())
		bad_value(name, v);
	std::string unit(end);
	static const struct {
		const char *name;
		uint64_t mul;
	} units[] = {{"ns", 1},
		     {"nsec", 1},
		     {"us", 1000},
		     {"usec", 1000},
		     {"ms", 1000000},
		     {"msec", 1000000},
		     {"s", 1000000000},
		     {"sec", 1000000000},
		     {"m", 60000000000},
		     {"min", 60000000000},
		     {"h", 3600000000000},
		     {"hour", 3600000000000},
		     {"d", 86400000000000},
		     {"day", 86400000000000}};
	if (unit.empty())
		return n;
	if (strcasecmp(unit.c_str(), "hz") == 0 && n != 0)
		return 1000000000ULL / n;
	for (const auto &u : units)
		if (strcasecmp(unit.c_str(), u.name) == 0)
			return n * u.mul;
	bad_value(name, v);
}

std::span<const option_info> option_table()
{
	return k_options;
}

const option_info *find_option(std::string_view name)
{
	for (const option_info &i : k_options)
		if (name == i.name)
			return &i;
	return nullptr;
}

const char *option_error(const std::string &name, const std::string &value, bool has_value)
{
	const option_info *o = find_option(name);
	if (!o)
		return "Invalid option name";
	return read_value(*o, value, has_value) ? nullptr : "Invalid value for specified option";
}

bool option_unsets(const std::string &name, const std::string &value)
{
	const option_info *o = find_option(name);
	if (!o || o->kind != ok::runtime)
		return false;
	for (const auto &c : k_couples)
		if (strcasecmp(value.c_str(), c.negative) == 0)
			return true;
	return false;
}

resolved_options resolve_options(const std::map<std::string, std::string> &opts)
{
	resolver r(opts);
	resolved_options o{};
	o.bufsize = r.value("bufsize");
	o.bufpolicy = static_cast<buffer_policy>(r.value("bufpolicy"));
	o.aggsize = r.value("aggsize");
	o.dynvarsize = r.value("dynvarsize");
	o.strsize = r.value("strsize");
	o.nspec = r.value32("nspec");
	o.specsize = r.value("specsize");
	o.aggrate = r.value("aggrate");
	o.switchrate = r.value("switchrate");
	o.statusrate = r.value("statusrate");
	o.cleanrate = r.value("cleanrate");
	o.stackframes = r.value32("stackframes");
	o.ustackframes = r.value32("ustackframes");
	o.jstackframes = r.value32("jstackframes");
	o.jstackstrsize = r.value32("jstackstrsize");
	o.destructive = r.flag("destructive");
	o.quiet = r.flag("quiet");
	o.flowindent = r.flag("flowindent");
	return o;
}

} // namespace dt
