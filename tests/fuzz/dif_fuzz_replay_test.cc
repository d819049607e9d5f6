// SPDX-License-Identifier: MIT
//
// dif_fuzz_replay_test.cc - runs the fuzz target (dif_fuzz.cc) in the
// ordinary build, without libFuzzer: every tests/dif vector in the fuzz
// format, then each of them with bytes flipped and cut, then seeded random
// inputs. Catches what a fuzzer would find cheaply, on every test run.
#include "dif_vectors.h"
#include "fuzz_difo.hpp"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

std::string seed(const dif_vector_t &v)
{
	dt::fuzz::difo_input in;
	in.text.assign(v.text, v.text + v.len);
	in.ints.assign(v.inttab, v.inttab + v.intlen);
	in.vars.assign(v.vartab, v.vartab + v.varlen);
	if (v.strtab)
		in.strtab.assign(v.strtab, v.strlen);
	in.kernel_priv = v.kernel_priv;
	in.strsize = static_cast<uint16_t>(v.strsize);
	in.scratch = static_cast<uint16_t>(v.scratch);
	return dt::fuzz::encode(in);
}

int run(const std::string &s)
{
	return LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(s.data()), s.size());
}

TEST(dif_fuzz_replay, format_round_trips)
{
	for (uint32_t i = 0; i < dif_nvectors; i++) {
		const dif_vector_t &v = dif_vectors[i];
		const std::string s = seed(v);
		dt::fuzz::difo_input out;
		ASSERT_TRUE(dt::fuzz::decode(reinterpret_cast<const uint8_t *>(s.data()), s.size(),
					     out))
			<< v.name;
		ASSERT_EQ(out.text.size(), v.len) << v.name;
		for (uint32_t k = 0; k < v.len; k++)
			EXPECT_EQ(out.text[k], v.text[k]) << v.name;
		if (v.strtab && v.strlen && v.strtab[v.strlen - 1] == '\0') {
			EXPECT_EQ(out.strtab, std::string(v.strtab, v.strlen)) << v.name;
		}
	}
}

TEST(dif_fuzz_replay, vectors_and_mutations_do_not_crash)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	auto next = [&x] {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		return x;
	};
	for (uint32_t i = 0; i < dif_nvectors; i++) {
		const std::string s = seed(dif_vectors[i]);
		EXPECT_EQ(run(s), 0);
		for (int m = 0; m < 200; m++) {
			std::string t = s;
			const int flips = 1 + static_cast<int>(next() % 4);
			for (int f = 0; f < flips && t.size() > dt::fuzz::k_header; f++) {
				const size_t at = dt::fuzz::k_header +
						  next() % (t.size() - dt::fuzz::k_header);
				t[at] = static_cast<char>(t[at] ^ (1u << (next() % 8)));
			}
			if (next() % 8 == 0)
				t.resize(t.size() - next() % (t.size() / 2 + 1));
			EXPECT_EQ(run(t), 0);
		}
	}
}

TEST(dif_fuzz_replay, random_inputs_do_not_crash)
{
	uint64_t x = 42;
	for (int n = 0; n < 20000; n++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		std::string t(8 + (x >> 58), '\0');
		for (auto &ch : t) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			ch = static_cast<char>(x >> 56);
		}
		t[0] = static_cast<char>(1 + static_cast<uint8_t>(t[0]) % 6); // short programs
		t[1] = static_cast<char>(static_cast<uint8_t>(t[1]) % 3);
		t[2] = static_cast<char>(static_cast<uint8_t>(t[2]) % 2);
		EXPECT_EQ(run(t), 0);
	}
}

} // namespace
