// SPDX-License-Identifier: MIT
//
// util/bytes.hpp - native-endian integers in records, keys and memory read
// by the engines and the consumer (uapi/dtrace/actions.h: integers are
// recorded in their size, 1, 2, 4 or 8 bytes). Internal to libdtrace.
#pragma once

#include <cstdint>
#include <cstring>

namespace dt::bytes {

// The unsigned value of the size-byte integer at p; 0 for any other size.
[[nodiscard]] inline uint64_t load_uint(const uint8_t *p, uint32_t size)
{
	switch (size) {
	case 1: return *p;
	case 2: {
		uint16_t v;
		std::memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;
		std::memcpy(&v, p, 4);
		return v;
	}
	case 8: {
		uint64_t v;
		std::memcpy(&v, p, 8);
		return v;
	}
	default: return 0;
	}
}

// The same, sign-extended from size bytes.
[[nodiscard]] inline int64_t load_int(const uint8_t *p, uint32_t size)
{
	uint64_t u = load_uint(p, size);
	if (size == 0 || size >= 8)
		return static_cast<int64_t>(u);
	unsigned shift = 64 - 8 * size;
	return static_cast<int64_t>(u << shift) >> shift;
}

} // namespace dt::bytes
