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

} // namespace dt::engines
