// SPDX-License-Identifier: MIT
//
// engine/options.hpp - a program's options as the engines read them: the
// typed values of the program model's one table (dtrace/options.hpp),
// resolved once per enable(), a bad value thrown as the engines' own
// engine_error with the same words ("invalid value for option NAME:
// VALUE"). Each engine applies its own capability limits on top.
#pragma once

#include <dtrace/engine.hpp>
#include <dtrace/options.hpp>
#include <dtrace/program.hpp>

namespace dt::engines {

[[nodiscard]] inline resolved_options engine_options(const program &p)
{
	try {
		return resolve_options(p.options);
	} catch (const option_value_error &e) {
		throw engine_error(e.what());
	}
}

} // namespace dt::engines
