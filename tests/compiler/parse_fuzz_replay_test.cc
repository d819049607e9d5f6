// SPDX-License-Identifier: MIT
// The parser fuzz target (tests/fuzz/parse_fuzz.cc) replayed in every build:
// seed scripts and seeded random mutations of them (bytes flipped,
// inserted, deleted, spliced) must each end in a program or a compile
// diagnostic - never a crash or another exception.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

const std::vector<std::string> seeds = {
	"BEGIN { printf(\"hello %d\\n\", 1 + 2); exit(0); }",
	"syscall::read:entry /pid == $target && arg2 > 0/ { self->ts = timestamp; "
	"@a[execname, probefunc] = quantize(arg2); @l = lquantize(arg2, 0, 100, 10); }\n"
	"syscall::read:return /self->ts/ { @t = avg(timestamp - self->ts); self->ts = 0; }",
	"struct s { int a; char b[8]; struct s *n; };\ntypedef struct s s_t;\n"
	"inline int K = sizeof (s_t) * 2;\nBEGIN { x = (s_t *)arg0; trace(x->n->a + K); "
	"trace(stringof(x->b)); a[\"k\", 1]++; this->v = a[\"k\", 1] ? 1 : 2; }",
	"#pragma D option quiet\nprofile-97 { @[ustack()] = count(); printa(\"%k %@d\", @); "
	"trunc(@, 10); }\ntick-1s { speculate(speculation()); printf(\"%s\", execname); }",
	"struct in { int a; };\nstruct out { long v; };\n"
	"translator struct out < struct in *P > { v = P->a * 2; };\n"
	"BEGIN { trace(xlate<struct out *>((struct in *)arg0)->v); @[stack(), func(arg1)] = "
	"sum(1); }",
	"#!/usr/sbin/dtrace -s\n#line 7\nBEGIN\n/\"a\" < \"b\" ^^ arg0 != 0/\n{\n\t"
	"trace(strjoin(\"a\", lltostr(12))); trace(0x7fffffffffffffffULL >> 3); }",
};

TEST(parse_fuzz_replay, seeds_and_mutations_never_crash)
{
	std::mt19937 rng(20261122);
	for (const auto &s : seeds)
		EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(s.data()),
						 s.size()),
			  0);
	const std::string alphabet = "{}()[]/;,:*&@$\"'\\\n -+<>=!?.0123456789abcxyz#";
	for (int i = 0; i < 3000; i++) {
		std::string m = seeds[rng() % seeds.size()];
		int edits = 1 + static_cast<int>(rng() % 4);
		for (int e = 0; e < edits && !m.empty(); e++) {
			size_t at = rng() % m.size();
			switch (rng() % 4) {
			case 0: m[at] = alphabet[rng() % alphabet.size()]; break;
			case 1: m.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
			case 2: m.erase(at, 1 + rng() % 8); break;
			default: {
				const std::string &o = seeds[rng() % seeds.size()];
				size_t from = rng() % o.size();
				m.insert(at, o.substr(from, 1 + rng() % 20));
			}
			}
		}
		EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(m.data()),
						 m.size()),
			  0)
			<< m;
	}
}

} // namespace
