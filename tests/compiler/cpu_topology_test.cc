// SPDX-License-Identifier: MIT
// The CPU topology library (compiler/cpu_topology.hpp) from a sysfs tree
// of the test's own: runs of CPUs per package and node, a CPU sysfs does
// not list, a machine without NUMA.
#include "compiler/cpu_topology.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

class fake_sysfs {
public:
	fake_sysfs()
	{
		root_ = fs::temp_directory_path() / ("dt-topo-" + std::to_string(getpid()));
		fs::remove_all(root_);
	}
	~fake_sysfs() { fs::remove_all(root_); }
	// cpuN with this package id, and node<node> unless node < 0.
	void cpu(int n, int pkg, int node)
	{
		fs::path c = root_ / "devices/system/cpu" / ("cpu" + std::to_string(n));
		fs::create_directories(c / "topology");
		std::ofstream(c / "topology" / "physical_package_id") << pkg << "\n";
		if (node >= 0)
			fs::create_directories(c / ("node" + std::to_string(node)));
	}
	[[nodiscard]] std::string root() const { return root_.string(); }

private:
	fs::path root_;
};

TEST(CpuTopology, RunsOfCpusPerPackageAndNode)
{
	fake_sysfs s;
	for (int i = 0; i < 4; i++)
		s.cpu(i, 0, 0);
	for (int i = 4; i < 8; i++)
		s.cpu(i, 1, 1);
	// Not sysfs' entries: cpufreq, online.
	fs::create_directories(s.root() + "/devices/system/cpu/cpufreq");
	std::string lib = dt::compiler::cpu_topology_library(s.root());
	EXPECT_NE(lib.find("chip = C < 4 ? 0 : C < 8 ? 1 : -1;"), std::string::npos) << lib;
	EXPECT_NE(lib.find("lgrp = C < 4 ? 0 : C < 8 ? 1 : -1;"), std::string::npos) << lib;
}

TEST(CpuTopology, ACpuNotListedAndNoNuma)
{
	fake_sysfs s;
	s.cpu(0, 0, -1);
	s.cpu(1, 0, -1);
	s.cpu(3, 2, -1); // cpu2 absent
	std::string lib = dt::compiler::cpu_topology_library(s.root());
	EXPECT_NE(lib.find("chip = C < 2 ? 0 : C < 3 ? -1 : C < 4 ? 2 : -1;"), std::string::npos)
		<< lib;
	EXPECT_NE(lib.find("lgrp = C < 2 ? 0 : C < 3 ? -1 : C < 4 ? 0 : -1;"), std::string::npos)
		<< lib;
}

TEST(CpuTopology, NoSysfsNoCpus)
{
	std::string lib = dt::compiler::cpu_topology_library("/nonexistent");
	EXPECT_NE(lib.find("chip = -1;"), std::string::npos) << lib;
}

} // namespace
