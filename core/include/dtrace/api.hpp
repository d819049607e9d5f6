// SPDX-License-Identifier: MIT
//
// dtrace/api.hpp - which symbols libdtrace.so exports: exactly what the
// public headers (core/include/dtrace/*.hpp) declare. The library is built
// with hidden visibility (libbpf's habit); each public header wraps its
// declarations in DT_API_BEGIN ... DT_API_END, so their classes (with
// their vtables and typeinfo, which exceptions need across the boundary)
// and functions are the library's interface and nothing else is. The
// layers' internal headers are not wrapped: what they declare stays
// inside libdtrace (tests link the static dtrace_core instead).
#pragma once

#if defined(__GNUC__)
#define DT_API_BEGIN _Pragma("GCC visibility push(default)")
#define DT_API_END _Pragma("GCC visibility pop")
#else
#define DT_API_BEGIN
#define DT_API_END
#endif
