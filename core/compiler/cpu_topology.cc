// SPDX-License-Identifier: MIT
// This machine's CPU topology as a D library (see cpu_topology.hpp).
#include "cpu_topology.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dt::compiler {
namespace {

// cpuN -> N, or -1.
long cpu_number(const std::string &name)
{
	if (name.size() < 4 || name.compare(0, 3, "cpu") != 0)
		return -1;
	char *end = nullptr;
	long n = std::strtol(name.c_str() + 3, &end, 10);
	return *end == '\0' && n >= 0 ? n : -1;
}

// The D expression of C's value: runs of consecutive CPUs with one value,
// -1 past the last (and for a CPU sysfs does not list).
std::string by_cpu(const std::map<long, long> &v)
{
	std::vector<std::pair<long, long>> runs; // (first CPU past the run, value)
	long next = 0;
	for (auto [cpu, val] : v) {
		if (cpu != next) // a gap: CPUs sysfs does not list
			runs.emplace_back(cpu, -1);
		if (!runs.empty() && runs.back().second == val)
			runs.back().first = cpu + 1;
		else
			runs.emplace_back(cpu + 1, val);
		next = cpu + 1;
	}
	std::string e;
	for (auto [end, val] : runs)
		e += "C < " + std::to_string(end) + " ? " + std::to_string(val) + " : ";
	return e + "-1";
}

} // namespace

std::string cpu_topology_library(const std::string &sysfs)
{
	namespace fs = std::filesystem;
	std::map<long, long> chip, lgrp;
	std::error_code ec;
	for (const auto &e : fs::directory_iterator(sysfs + "/devices/system/cpu", ec)) {
		long cpu = cpu_number(e.path().filename().string());
		if (cpu < 0)
			continue;
		long pkg = -1;
		std::ifstream(e.path() / "topology" / "physical_package_id") >> pkg;
		chip[cpu] = pkg;
		long node = 0; // no NUMA: one locality group
		std::error_code ec2;
		for (const auto &n : fs::directory_iterator(e.path(), ec2)) {
			std::string f = n.path().filename().string();
			char *end = nullptr;
			if (f.size() > 4 && f.compare(0, 4, "node") == 0) {
				long v = std::strtol(f.c_str() + 4, &end, 10);
				if (*end == '\0' && v >= 0)
					node = v;
			}
		}
		lgrp[cpu] = node;
	}
	return "/* This machine's CPU topology, from sysfs (compiler/cpu_topology.hpp). */\n"
	       "typedef struct __dt_cpu_topology {\n"
	       "\tint chip;\n"
	       "\tint lgrp;\n"
	       "} __dt_cpu_topology_t;\n"
	       "translator __dt_cpu_topology_t < int C > {\n"
	       "\tchip = " +
	       by_cpu(chip) + ";\n\tlgrp = " + by_cpu(lgrp) + ";\n};\n";
}

} // namespace dt::compiler
