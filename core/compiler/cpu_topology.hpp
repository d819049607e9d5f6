// SPDX-License-Identifier: MIT
//
// compiler/cpu_topology.hpp - this machine's CPU topology as a D library,
// for sched.d's cpuinfo_t (the Dynamic Tracing Guide's cpu_chip and
// cpu_lgrp, illumos' chip and lgrp inlines).
//
// illumos reads a CPU's chip and locality group from its cpu_t. Linux keeps
// them in per-CPU data (cpu_info's package id, numa_node) that nothing a
// translator reaches leads to, and on a kernel without data symbols in
// kallsyms not even their addresses. They are constant while the machine
// runs, and every engine runs the program on this machine, so the compiler
// makes them D from sysfs, as Oracle's DTrace fills its cpuinfo map:
//
//   /sys/devices/system/cpu/cpuN/topology/physical_package_id  -> chip
//   /sys/devices/system/cpu/cpuN/nodeM                         -> lgrp M
//
// into a translator from a CPU's number, which sched.d applies to the CPU
// a thread is on:
//
//   typedef struct __dt_cpu_topology { chipid_t chip; lgrp_id_t lgrp; } ...;
//   translator __dt_cpu_topology_t < int C > {
//           chip = C < 4 ? 0 : C < 8 ? 1 : -1;     (runs of equal ids)
//           lgrp = C < 8 ? 0 : -1; };
//
// A CPU that sysfs does not list is chip and lgrp -1; a CPU without a
// node (a kernel without NUMA) is in lgrp 0, as illumos' one lgroup of a
// machine that is not NUMA.
#pragma once

#include <string>

namespace dt::compiler {

// The library's text, from the sysfs mounted at `sysfs` ("/sys").
[[nodiscard]] std::string cpu_topology_library(const std::string &sysfs);

} // namespace dt::compiler
