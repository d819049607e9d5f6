// SPDX-License-Identifier: MIT
// program/options.cc - the option table and its reading (dtrace/options.hpp).
#include <dtrace/options.hpp>

#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string_view>

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
	{"engines", ok::runtime, op::run, 0, 0, 0, k_max}, // dtrace -l: the engines' table
	{"errtags", ok::text, op::compile, k_read_session, 0, 0, k_max},
	{"evaltime", ok::text, op::run, k_read_session, 0, 0, k_max},
	{"flowindent", ok::runtime, op::run, k_cons, 0, 0, k_max},
	{"grabanon", ok::runtime, op::run, 0, 0, 0, k_max},
	{"incdir", ok::text, op::compile, 0, 0, 0, k_max},
	{"iregs", ok::text, op::compile, 0, 0, 0, k_max},
	{"jstackframes", ok::runtime, op::compile, k_read_compiler, 50, 0, k_max32},
	{"jstackstrsize", ok::size, op::compile, k_read_compiler, 512, 0, k_max32},
	{"kdefs", ok::text, op::compile, k_read_compiler, 0, 0, k_max},
	{"knodefs", ok::text, op::compile, k_read_compiler, 0, 0, k_max},
	{"lazyload", ok::text, op::compile, 0, 0, 0, k_max},
	{"ldpath", ok::text, op::compile, 0, 0, 0, k_max},
	{"libdir", ok::text, op::compile, 0, 0, 0, k_max},
	{"linkmode", ok::text, op::compile, k_read_compiler, 0, 0, k_max},
	{"linktype", ok::text, op::compile, 0, 0, 0, k_max},
	{"maxframes", ok::runtime, op::compile, k_read_compiler | k_read_bpf, 0, 0, k_max32},
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
	{"strip", ok::text, op::compile, 0, 0, 0, k_max}, // dtrace -G
	{"strsize", ok::size, op::compile, k_read_compiler | k_engines, 256, 1, k_max32 - 1},
	{"switchrate", ok::rate, op::run, k_read_session, k_sec, 0, k_max},
	{"syslibdir", ok::text, op::compile, 0, 0, 0, k_max},
	{"temporal", ok::runtime, op::run, 0, 0, 0, k_max},
	{"tregs", ok::text, op::compile, 0, 0, 0, k_max},
	{"udefs", ok::text, op::compile, 0, 0, 0, k_max},
	{"undef", ok::text, op::compile, 0, 0, 0, k_max},
	{"unodefs", ok::text, op::compile, 0, 0, 0, k_max},
	{"ustackbytes", ok::size, op::compile, k_read_compiler, 0, 0, 16384},
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

// illumos dt_options.c: what the function of each free-form option
// accepts. A flag (dt_opt_cflags(), dt_opt_dflags(), dt_opt_core() ...)
// takes no value; a path or a name needs one; the rest take one of a few
// words or a number. Options not listed take anything.
enum class text_rule : uint8_t { flag, needs_value, words, positive, count, version, attr };

constexpr struct {
	const char *name;
	text_rule rule;
	const char *words;     // text_rule::words: the accepted values, ' '-separated
	bool any_case = false; // strcasecmp() (linktype), else strcmp()
} k_text_rules[] = {
	{"argref", text_rule::flag, nullptr},
	{"core", text_rule::flag, nullptr},
	{"cpp", text_rule::flag, nullptr},
	{"cpphdrs", text_rule::flag, nullptr},
	{"defaultargs", text_rule::flag, nullptr},
	{"empty", text_rule::flag, nullptr},
	{"errtags", text_rule::flag, nullptr},
	{"kdefs", text_rule::flag, nullptr},
	{"knodefs", text_rule::flag, nullptr},
	{"nolibs", text_rule::flag, nullptr},
	{"pspec", text_rule::flag, nullptr},
	{"strip", text_rule::flag, nullptr},
	{"udefs", text_rule::flag, nullptr},
	{"unodefs", text_rule::flag, nullptr},
	{"verbose", text_rule::flag, nullptr},
	{"zdefs", text_rule::flag, nullptr},
	{"cpppath", text_rule::needs_value, nullptr},
	{"ctypes", text_rule::needs_value, nullptr},
	{"define", text_rule::needs_value, nullptr},
	{"dtypes", text_rule::needs_value, nullptr},
	{"incdir", text_rule::needs_value, nullptr},
	{"ldpath", text_rule::needs_value, nullptr},
	{"libdir", text_rule::needs_value, nullptr},
	{"syslibdir", text_rule::needs_value, nullptr},
	{"undef", text_rule::needs_value, nullptr},
	{"linkmode", text_rule::words, "kernel primary dynamic static"},
	{"linktype", text_rule::words, "elf dof", true},
	{"evaltime", text_rule::words, "exec preinit postinit main"},
	{"iregs", text_rule::positive, nullptr},
	{"tregs", text_rule::positive, nullptr},
	{"pgmax", text_rule::count, nullptr},
	{"version", text_rule::version, nullptr},
	{"amin", text_rule::attr, nullptr},
};

// A stability word or a class word of dtrace_str2attr() (any case).
bool attr_word(std::string_view w, bool klass)
{
	static constexpr const char *stab[] = {"internal", "private",  "obsolete", "external",
					       "unstable", "evolving", "stable",   "standard"};
	static constexpr const char *cls[] = {"unknown", "cpu", "platform",
					      "group",	 "isa", "common"};
	std::string s(w);
	if (klass)
		return std::any_of(std::begin(cls), std::end(cls),
				   [&](const char *c) { return strcasecmp(c, s.c_str()) == 0; });
	return std::any_of(std::begin(stab), std::end(stab),
			   [&](const char *c) { return strcasecmp(c, s.c_str()) == 0; });
}

// dtrace_str2attr(): name[/data[/class]].
bool attr_ok(const std::string &v)
{
	size_t start = 0;
	for (int field = 0;; field++) {
		size_t slash = v.find('/', start);
		std::string_view w = std::string_view(v).substr(start, slash - start);
		if (field > 2 || !attr_word(w, field == 2))
			return false;
		if (slash == std::string::npos)
			return true;
		start = slash + 1;
	}
}

// Whether the value of a text option reads, by its rule.
bool text_ok(const option_info &o, const std::string &v, bool has_value)
{
	for (const auto &r : k_text_rules) {
		if (std::string_view(r.name) != o.name)
			continue;
		switch (r.rule) {
		case text_rule::flag: return !has_value;
		case text_rule::needs_value: return has_value;
		case text_rule::words: {
			if (!has_value)
				return false;
			std::string_view words(r.words);
			for (size_t i = 0; i < words.size();) {
				size_t sp = words.find(' ', i);
				std::string w(words.substr(i, sp - i));
				if (r.any_case ? strcasecmp(w.c_str(), v.c_str()) == 0 : w == v)
					return true;
				i = sp == std::string_view::npos ? words.size() : sp + 1;
			}
			return false;
		}
		case text_rule::positive:
		case text_rule::count: {
			if (!has_value || v.empty())
				return false;
			char *end = nullptr;
			long n = std::strtol(v.c_str(), &end, 10);
			return *end == '\0' && (r.rule == text_rule::count ? n >= 0 : n > 0);
		}
		case text_rule::version: return has_value && version_error(v) == nullptr;
		case text_rule::attr: return has_value && attr_ok(v);
		}
	}
	return true;
}

// The value of NAME=V by its kind; nullopt when it does not read. has_value
// false: the bare NAME, which a size or a rate cannot be.
std::optional<uint64_t> read_value(const option_info &o, const std::string &v, bool has_value)
{
	try {
		switch (o.kind) {
		case ok::text:
			if (!text_value_reads(o, v) || !text_ok(o, v, has_value))
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
	if (name == "version" && has_value)
		return version_error(value); // dt_opt_version()'s own errors
	return read_value(*o, value, has_value) ? nullptr : "Invalid value for specified option";
}

const char *pragma_option_error(const std::string &name, const std::string &value, bool has_value)
{
	if (const char *why = option_error(name, value, has_value))
		return why;
	// The options whose dt_opt_* function refuses a compilation in
	// progress (dtp->dt_pcb != NULL): those of cpp and of ld.
	static constexpr const char *k_cli_only[] = {"cpphdrs", "cpppath", "define", "incdir",
						     "ldpath",	"stdc",	   "undef"};
	for (const char *n : k_cli_only)
		if (name == n)
			return "Option cannot be used from within a D program";
	return nullptr;
}

const char *version_error(const std::string &v)
{
	// dt_version_str2num(): M[.m[.u]], digits and at most two dots.
	unsigned n[3] = {0, 0, 0};
	size_t i = 0;
	for (char c : v) {
		if (c >= '0' && c <= '9')
			n[i] = n[i] * 10 + static_cast<unsigned>(c - '0');
		else if (c != '.' || ++i > 2)
			return "Version is not properly formatted or is too large";
		if (n[i] > 0xfff)
			return "Version is not properly formatted or is too large";
	}
	// illumos _dtrace_versions[]: the D versions this compiler implements.
	static constexpr unsigned k_versions[][3] = {
		{1, 0, 0}, {1, 1, 0},  {1, 2, 0},  {1, 2, 1},  {1, 2, 2},  {1, 3, 0},
		{1, 4, 0}, {1, 4, 1},  {1, 5, 0},  {1, 6, 0},  {1, 6, 1},  {1, 6, 2},
		{1, 6, 3}, {1, 7, 0},  {1, 7, 1},  {1, 8, 0},  {1, 8, 1},  {1, 9, 0},
		{1, 9, 1}, {1, 10, 0}, {1, 11, 0}, {1, 12, 0}, {1, 12, 1}, {1, 13, 0},
	};
	for (const auto &k : k_versions)
		if (k[0] == n[0] && k[1] == n[1] && k[2] == n[2])
			return nullptr;
	return "Requested version is not supported by compiler";
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
	// A string keeps up to strsize characters (illumos stores a full array
	// with no NUL; Solaris' Guide: "a string is not necessarily a null
	// terminated value"); the engines keep the NUL after them.
	o.strsize = r.value("strsize") + 1;
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
	o.maxframes = r.value32("maxframes");
	o.destructive = r.flag("destructive");
	o.quiet = r.flag("quiet");
	o.flowindent = r.flag("flowindent");
	return o;
}

} // namespace dt
