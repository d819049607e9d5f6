// SPDX-License-Identifier: MIT
// Reading back the kmod engine's ENABLE blob (core/engine/kmod/program_blob.hpp)
// in tests, as dtrace.ko reads it (kmod/include/uapi/dtrace/ioctl.h): the
// header, and the actions of the first ECB section.
#pragma once

#include "program_blob.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace dt::test {

inline dtrace_prog_hdr_t header_of(const kmod::program_blob &b)
{
	dtrace_prog_hdr_t h{};
	EXPECT_GE(b.bytes.size(), sizeof(h));
	std::memcpy(&h, b.bytes.data(), sizeof(h));
	return h;
}

// Calls fn(ecb, its actions) for each ECB section, in blob order, until fn
// returns false.
template <typename Fn> inline void for_each_ecb(const kmod::program_blob &b, Fn fn)
{
	size_t off = sizeof(dtrace_prog_hdr_t);
	while (off + sizeof(dtrace_prog_sec_t) <= b.bytes.size()) {
		dtrace_prog_sec_t s;
		std::memcpy(&s, b.bytes.data() + off, sizeof(s));
		if (s.dtps_size == 0)
			break;
		if (s.dtps_type == DTRACE_PSEC_ECB) {
			dtrace_prog_ecb_t e;
			std::memcpy(&e, b.bytes.data() + off + sizeof(s), sizeof(e));
			if (!fn(e, b.bytes.data() + off + sizeof(s) + sizeof(e)))
				return;
		}
		off += s.dtps_size;
	}
}

// Each ECB section's firing size (dtpe_size), in blob order.
inline std::vector<uint32_t> ecb_sizes(const kmod::program_blob &b)
{
	std::vector<uint32_t> out;
	for_each_ecb(b, [&](const dtrace_prog_ecb_t &e, const uint8_t *) {
		out.push_back(e.dtpe_size);
		return true;
	});
	return out;
}

inline std::vector<dtrace_prog_act_t> first_ecb_actions(const kmod::program_blob &b)
{
	std::vector<dtrace_prog_act_t> out;
	for_each_ecb(b, [&](const dtrace_prog_ecb_t &e, const uint8_t *acts) {
		out.resize(e.dtpe_nacts);
		std::memcpy(out.data(), acts, e.dtpe_nacts * sizeof(dtrace_prog_act_t));
		return false;
	});
	return out;
}

} // namespace dt::test
