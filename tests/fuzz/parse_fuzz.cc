// SPDX-License-Identifier: MIT
//
// parse_fuzz.cc - libFuzzer target for the D lexer and parser (passes 2-3
// of core/compiler/driver.cc): arbitrary bytes in, either an AST or a
// compile diagnostic (d_error) out - never a crash, hang or other
// exception. Then the typed passes run on what parsed, without a registry
// (no probe matching), so sema and codegen see odd but valid syntax too.
//
// Build: clang++ -fsanitize=fuzzer,address with libdtrace (tests/fuzz/).
#include "compiler/diag.hpp"
#include "compiler/parse/parser.hpp"

#include <dtrace/compiler.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	std::string src(reinterpret_cast<const char *>(data), size);
	dt::compiler::macro_values macros;
	macros.args = {"fuzz", "1", "two"};
	macros.named["target"] = "1";
	std::set<std::string> typedefs;
	try {
		(void)dt::compiler::parse(src, macros, typedefs);
	} catch (const dt::compiler::d_error &) {
		return 0;
	}
	dt::compiler::input in;
	in.k = dt::compiler::input::kind::script;
	in.text = src;
	in.file = "fuzz.d";
	dt::compiler::settings s;
	s.macro_args = macros.args;
	s.target = 1;
	try {
		(void)dt::compiler::compile({in}, s);
	} catch (const dt::compiler::compile_error &) {
	}
	return 0;
}
