// SPDX-License-Identifier: MIT
//
// dtrace/error.hpp - libdtrace's one error convention (CODING-STYLE.md,
// "Errors"; bpftrace's written policy: diagnostics for user mistakes,
// errors for failures the caller reports, assertions for bugs).
//
//   dt::error            thrown by the library: a code saying what kind of
//     │                  failure, and DTrace's message for it (no prefix:
//     │                  the caller adds "dtrace: ..." and any context such
//     │                  as "failed to enable 'X': ")
//     ├── compile_error  (dtrace/compiler.hpp) carries the diagnostic
//     └── engine_error   (dtrace/engine.hpp) carries the clause at fault
//   DT_ASSERT(cond)      an invariant (core/util/assert.hpp); never input
//
// Callers branch on code(), never on the message text. The plugin ABI
// keeps its C convention (0 or a negative errno), turned into dt::error
// at the plugin loader.
#pragma once

#include <dtrace/api.hpp>

#include <stdexcept>
#include <string>

DT_API_BEGIN

namespace dt {

enum class errc {
	usage,	     // a bad command line or option value
	compile,     // the D program is wrong (compile_error)
	no_match,    // a probe description matches no probe (without -Z)
	enable,	     // an engine cannot run the program or one of its probes
	privilege,   // "DTrace requires additional privileges"
	unsupported, // this kernel lacks what the program needs
	process,     // -c / -p: a process cannot be created, grabbed or held
	io,	     // a file, device or output stream failed
	internal,    // the library's own failure (a bug, or out of resources)
};

class error : public std::runtime_error {
public:
	error(errc code, const std::string &message) : std::runtime_error(message), code_(code) {}
	[[nodiscard]] errc code() const noexcept { return code_; }

private:
	errc code_;
};

} // namespace dt

DT_API_END
