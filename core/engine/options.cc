// SPDX-License-Identifier: MIT
// engine/options.cc - see options.hpp.
#include "options.hpp"

#include <dtrace/engine.hpp>

#include <strings.h>

#include <cerrno>
#include <cstdlib>

namespace dt::engines {

uint64_t parse_size_option(const std::string &name, const std::string &v)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(v.c_str(), &end, 0);
	if (errno != 0 || end == v.c_str())
		throw engine_error("invalid value for option " + name + ": " + v);
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
		throw engine_error("invalid value for option " + name + ": " + v);
	return n * mul;
}

uint64_t parse_rate_option(const std::string &name, const std::string &v)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(v.c_str(), &end, 10);
	if (errno != 0 || end == v.c_str())
		throw engine_error("invalid value for option " + name + ": " + v);
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
	throw engine_error("invalid value for option " + name + ": " + v);
}

namespace {

enum class opt_kind : uint8_t {
	any,	 // free form, or read where it is used (engine, evaltime ...)
	size,	 // dt_opt_size()
	rate,	 // dt_opt_rate()
	runtime, // dt_opt_runtime(): empty, yes/no ..., or a number
	policy,	 // dt_opt_bufpolicy(): fill, switch or ring
	resize,	 // dt_opt_bufresize(): auto or manual
};

struct opt_info {
	const char *name;
	opt_kind kind;
};

// illumos dt_options.c: _dtrace_ctoptions, _dtrace_rtoptions and
// _dtrace_drtoptions, plus this implementation's engine and maxframes.
constexpr opt_info k_options[] = {
	{"aggpercpu", opt_kind::runtime},    {"aggrate", opt_kind::rate},
	{"aggsize", opt_kind::size},	     {"aggsortkey", opt_kind::runtime},
	{"aggsortkeypos", opt_kind::runtime}, {"aggsortpos", opt_kind::runtime},
	{"aggsortrev", opt_kind::runtime},   {"aggzoom", opt_kind::runtime},
	{"agghist", opt_kind::runtime},	     {"aggpack", opt_kind::runtime},
	{"amin", opt_kind::any},	     {"argref", opt_kind::any},
	{"bufpolicy", opt_kind::policy},	     {"bufresize", opt_kind::resize},
	{"bufsize", opt_kind::size},	     {"cleanrate", opt_kind::rate},
	{"core", opt_kind::any},	     {"cpp", opt_kind::any},
	{"cpphdrs", opt_kind::any},	     {"cpppath", opt_kind::any},
	{"cpu", opt_kind::runtime},	     {"ctypes", opt_kind::any},
	{"defaultargs", opt_kind::any},	     {"define", opt_kind::any},
	{"destructive", opt_kind::runtime},  {"dtypes", opt_kind::any},
	{"dynvarsize", opt_kind::size},	     {"empty", opt_kind::any},
	{"encoding", opt_kind::any},	     {"engine", opt_kind::any},
	{"errtags", opt_kind::any},	     {"evaltime", opt_kind::any},
	{"flowindent", opt_kind::runtime},   {"grabanon", opt_kind::runtime},
	{"incdir", opt_kind::any},	     {"iregs", opt_kind::any},
	{"jstackframes", opt_kind::runtime}, {"jstackstrsize", opt_kind::size},
	{"knodefs", opt_kind::any},	     {"lazyload", opt_kind::any},
	{"ldpath", opt_kind::any},	     {"libdir", opt_kind::any},
	{"linkmode", opt_kind::any},	     {"linktype", opt_kind::any},
	{"maxframes", opt_kind::runtime},    {"noresolve", opt_kind::runtime},
	{"nolibs", opt_kind::any},	     {"nspec", opt_kind::runtime},
	{"oformat", opt_kind::any},	     {"pgmax", opt_kind::any},
	{"preallocate", opt_kind::size},     {"pspec", opt_kind::any},
	{"quiet", opt_kind::runtime},	     {"rawbytes", opt_kind::runtime},
	{"specsize", opt_kind::size},	     {"stackframes", opt_kind::runtime},
	{"stackindent", opt_kind::runtime},  {"statusrate", opt_kind::rate},
	{"strsize", opt_kind::size},	     {"switchrate", opt_kind::rate},
	{"syslibdir", opt_kind::any},	     {"temporal", opt_kind::runtime},
	{"tregs", opt_kind::any},	     {"udefs", opt_kind::any},
	{"undef", opt_kind::any},	     {"unodefs", opt_kind::any},
	{"ustackframes", opt_kind::runtime}, {"verbose", opt_kind::any},
	{"version", opt_kind::any},	     {"zdefs", opt_kind::any},
	{"zone", opt_kind::any},
};

const opt_info *find_option(const std::string &name)
{
	for (const opt_info &i : k_options)
		if (name == i.name)
			return &i;
	return nullptr;
}

// dt_opt_runtime()'s couples: the positive word sets, the negative unsets.
constexpr struct {
	const char *positive, *negative;
} k_couples[] = {{"yes", "no"},	  {"enable", "disable"}, {"enabled", "disabled"},
		 {"true", "false"}, {"on", "off"},	   {"set", "unset"}};

bool runtime_value_ok(const std::string &v)
{
	if (v.empty())
		return true;
	for (const auto &c : k_couples)
		if (strcasecmp(v.c_str(), c.positive) == 0 || strcasecmp(v.c_str(), c.negative) == 0)
			return true;
	if (v[0] == '-')
		return false;
	char *end = nullptr;
	errno = 0;
	(void)std::strtoull(v.c_str(), &end, 0);
	return errno == 0 && end != v.c_str() && *end == '\0';
}

} // namespace

const char *option_error(const std::string &name, const std::string &value, bool has_value)
{
	const opt_info *o = find_option(name);
	if (!o)
		return "Invalid option name";
	bool ok = true;
	try {
		switch (o->kind) {
		case opt_kind::any: break;
		case opt_kind::size:
			ok = has_value && !value.empty() && value[0] != '-' &&
			     (void(parse_size_option(name, value)), true);
			break;
		case opt_kind::rate:
			ok = has_value && !value.empty() && value[0] != '-' &&
			     (void(parse_rate_option(name, value)), true);
			break;
		case opt_kind::runtime: ok = runtime_value_ok(value); break;
		case opt_kind::policy:
			ok = value == "fill" || value == "switch" || value == "ring";
			break;
		case opt_kind::resize: ok = value == "auto" || value == "manual"; break;
		}
	} catch (const engine_error &) {
		ok = false;
	}
	return ok ? nullptr : "Invalid value for specified option";
}

bool option_unsets(const std::string &name, const std::string &value)
{
	const opt_info *o = find_option(name);
	if (!o || o->kind != opt_kind::runtime)
		return false;
	for (const auto &c : k_couples)
		if (strcasecmp(value.c_str(), c.negative) == 0)
			return true;
	return false;
}

} // namespace dt::engines
