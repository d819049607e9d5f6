// SPDX-License-Identifier: MIT
// Internals shared by the plugin loader, the registry and the built-in
// dtrace provider. Not installed.
#pragma once

#include <dtrace/provider.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dt::detail {

// The tracefs root, mounting it if we are root and it is not mounted;
// empty if there is none.
[[nodiscard]] std::string find_tracefs();

// The built-in dtrace provider (BEGIN, END, ERROR).
[[nodiscard]] std::unique_ptr<provider> make_dtrace_provider();

// Load dt_<name>.so at `path`. On any failure returns nullptr and sets
// `why` to a reason fit for "failed to load provider plugin PATH: WHY".
[[nodiscard]] std::unique_ptr<provider>
load_plugin(const std::string &path, const std::string &expected_name,
	    const dt_plugin_host_t *host, warning_fn warn, std::string &why);

// A plugin's DT_PLUGIN_NOTE (dtrace/plugin.h): its DT_PLUGIN_F_* flags and
// the globs every probe name it reports matches.
struct plugin_note {
	uint32_t flags = 0;
	std::vector<std::string> names;
};

// Read the note from the plugin file without loading it (plugin_note.cc);
// false when the file has none (or is no 64-bit ELF object).
[[nodiscard]] bool read_plugin_note(const std::string &path, plugin_note &out);

// True if a file name is a plugin's (dt_<name>.so); sets `name`.
[[nodiscard]] bool plugin_file_name(const std::string &file, std::string &name);

} // namespace dt::detail
