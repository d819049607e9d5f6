// SPDX-License-Identifier: MIT
//
// util/assert.hpp - DT_ASSERT(cond): an invariant of libdtrace's own
// making (never a check of input: input errors are dt::error). On in every
// build type, as illumos' ASSERT() is in DEBUG kernels: the conditions are
// cheap, and a broken invariant in a tracer must stop it before it prints
// wrong data. The failure names the condition and where, then aborts.
#pragma once

namespace dt::detail {
[[noreturn]] void assert_fail(const char *cond, const char *file, int line, const char *func);
} // namespace dt::detail

#define DT_ASSERT(cond)                \
	((cond) ? static_cast<void>(0) \
		: ::dt::detail::assert_fail(#cond, __FILE__, __LINE__, __func__))
