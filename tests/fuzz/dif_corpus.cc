// SPDX-License-Identifier: MIT
//
// dif_corpus.cc - writes every tests/dif vector that validates as a seed
// for dif_fuzz, one file per row (NAME.difo) in the directory argv[1].
#include "dif_vectors.h"
#include "fuzz_difo.hpp"

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: dif_corpus DIR\n");
		return 2;
	}
	unsigned n = 0;
	for (uint32_t i = 0; i < dif_nvectors; i++) {
		const dif_vector_t &v = dif_vectors[i];
		if (v.kind == DV_REJECT || v.len > 255 || v.intlen > 255 || v.varlen > 255)
			continue;
		dt::fuzz::difo_input in;
		in.text.assign(v.text, v.text + v.len);
		in.ints.assign(v.inttab, v.inttab + v.intlen);
		in.vars.assign(v.vartab, v.vartab + v.varlen);
		if (v.strtab)
			in.strtab.assign(v.strtab, v.strlen);
		in.kernel_priv = v.kernel_priv;
		in.strsize = static_cast<uint16_t>(v.strsize);
		in.scratch = static_cast<uint16_t>(v.scratch);
		std::ofstream f(std::string(argv[1]) + "/" + v.name + ".difo", std::ios::binary);
		const std::string bytes = dt::fuzz::encode(in);
		f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
		if (!f) {
			std::fprintf(stderr, "dif_corpus: cannot write %s\n", v.name);
			return 1;
		}
		n++;
	}
	std::printf("dif_corpus: %u seeds\n", n);
	return 0;
}
