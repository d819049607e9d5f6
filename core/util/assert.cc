// SPDX-License-Identifier: MIT
// DT_ASSERT's failure path (see assert.hpp). A broken invariant is a bug,
// not an error the caller reports: this is the one place the library
// writes to stderr, as assert(3) does.
#include "util/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace dt::detail {

void assert_fail(const char *cond, const char *file, int line, const char *func)
{
	std::fflush(stdout);
	std::fprintf(stderr, "dtrace: internal error: assertion failed: %s, %s:%d (%s)\n", cond,
		     file, line, func);
	std::abort();
}

} // namespace dt::detail
