// SPDX-License-Identifier: MIT
//
// modules.hpp - loading dtrace.ko and provider modules on demand for the
// kmod engine (issue 4, docs/architecture.md §2).
//
// Where modules are looked for, first match wins, each directory holding
// <module>.ko built for the running kernel:
//
//   $DTRACE_KMOD_DIR                 colon-separated directories, as given
//   <exe>/../lib/dtrace/modules/<uname -r>      the build tree / a relocated
//                                               install
//   <libdir>/dtrace/modules/<uname -r>          the configured install
//   /lib/modules/<uname -r>/updates/dkms        the dtrace-dkms package's
//                                               build (DKMS)
//
// A module is loaded with finit_module(2) (no modprobe, no depmod: the
// core's symbols are already in the kernel when a provider loads after
// it). A module that is loaded already (/sys/module/<name>, or EEXIST) is
// not an error. Nothing here unloads: the modules stay, as modprobe'd
// modules do; rmmod works once no consumer uses them.
#pragma once

#include <dtrace/error.hpp>

#include <optional>
#include <string>
#include <vector>

namespace dt::kmod {

// The directories searched, in order (see above).
[[nodiscard]] std::vector<std::string> module_search_path();

// Is the module loaded (or built in)? /sys/module/<name> exists.
[[nodiscard]] bool module_loaded(const std::string &name);

// Load <name>.ko unless loaded: nullopt, else why not, in DTrace's manner
// (errc::unsupported, errc::privilege or errc::io):
//   "cannot load module dtrace: this kernel cannot load modules
//    (finit_module: Function not implemented)"       no CONFIG_MODULES
//   "cannot load module dtrace: DTrace requires additional privileges"
//   "cannot load module dtrace: no dtrace.ko in DIR, DIR (set DTRACE_KMOD_DIR)"
//   "cannot load module dtrace: DIR/dtrace.ko: <strerror>"  (e.g. a module
//    built for another kernel: Exec format error / Invalid argument)
[[nodiscard]] std::optional<error> load_module(const std::string &name);

// /dev/dtrace exists, loading dtrace.ko first if it does not (and then
// waiting briefly for devtmpfs to create the node): nullopt, else why not.
[[nodiscard]] std::optional<error> ensure_core();

// What load_module(name) would say, without loading anything (dtrace -l's
// engine notes): nullopt when the module is loaded, or its file is found,
// the kernel loads modules (/proc/modules) and this process may; else the
// error load_module() would give (the last two with a generic reason).
[[nodiscard]] std::optional<error> could_load(const std::string &name);

} // namespace dt::kmod
