// SPDX-License-Identifier: MIT
//
// fuzz_difo.hpp - the byte format the DIF fuzzer reads, shared with the
// seed-corpus generator (dif_corpus.cc) that writes the tests/dif vectors
// in it.
//
//   0  u8  ntext      instructions that follow (native-endian u32 each)
//   1  u8  nint       integer-table entries (u64 each)
//   2  u8  nvar       variable-table entries (dtrace_difv_t, 16 bytes each)
//   3  u8  flags      bit 0: kernel_priv
//   4  u16 strsize    0: the VM's default
//   6  u16 scratch    scratch bytes (0: DV_SCRATCH_MAX), capped there
//   8  ... text, inttab, vartab, then the string table: the rest, to which
//          the decoder appends a NUL
#pragma once

extern "C" {
#include <uapi/dtrace/dif.h>
}

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace dt::fuzz {

struct difo_input {
	std::vector<dif_instr_t> text;
	std::vector<uint64_t> ints;
	std::vector<dtrace_difv_t> vars;
	std::string strtab; // NUL-terminated by decode()
	bool kernel_priv = false;
	uint16_t strsize = 0;
	uint16_t scratch = 0;
};

constexpr size_t k_header = 8;

inline bool decode(const uint8_t *data, size_t size, difo_input &out)
{
	if (size < k_header)
		return false;
	const size_t nt = data[0], ni = data[1], nv = data[2];
	const size_t need = k_header + nt * 4 + ni * 8 + nv * sizeof(dtrace_difv_t);
	if (size < need)
		return false;
	out.kernel_priv = data[3] & 1;
	std::memcpy(&out.strsize, data + 4, 2);
	std::memcpy(&out.scratch, data + 6, 2);
	const uint8_t *p = data + k_header;
	// memcpy only non-empty ranges: data() of an empty vector may be null.
	out.text.resize(nt);
	if (nt)
		std::memcpy(out.text.data(), p, nt * 4);
	p += nt * 4;
	out.ints.resize(ni);
	if (ni)
		std::memcpy(out.ints.data(), p, ni * 8);
	p += ni * 8;
	out.vars.resize(nv);
	if (nv)
		std::memcpy(out.vars.data(), p, nv * sizeof(dtrace_difv_t));
	p += nv * sizeof(dtrace_difv_t);
	out.strtab.assign(reinterpret_cast<const char *>(p), size - need);
	out.strtab.push_back('\0');
	return true;
}

inline std::string encode(const difo_input &in)
{
	std::string s(k_header, '\0');
	s[0] = static_cast<char>(in.text.size());
	s[1] = static_cast<char>(in.ints.size());
	s[2] = static_cast<char>(in.vars.size());
	s[3] = static_cast<char>(in.kernel_priv ? 1 : 0);
	std::memcpy(s.data() + 4, &in.strsize, 2);
	std::memcpy(s.data() + 6, &in.scratch, 2);
	s.append(reinterpret_cast<const char *>(in.text.data()), in.text.size() * 4);
	s.append(reinterpret_cast<const char *>(in.ints.data()), in.ints.size() * 8);
	s.append(reinterpret_cast<const char *>(in.vars.data()),
		 in.vars.size() * sizeof(dtrace_difv_t));
	// The decoder adds the final NUL back.
	if (!in.strtab.empty() && in.strtab.back() == '\0')
		s.append(in.strtab, 0, in.strtab.size() - 1);
	else
		s += in.strtab;
	return s;
}

} // namespace dt::fuzz
