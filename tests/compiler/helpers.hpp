// SPDX-License-Identifier: MIT
// Helpers for the compiler tests: compile D, check every DIF object with
// dif_validate(), run a DIF object in a tiny environment.
#pragma once

#include <dtrace/compiler.hpp>
#include <dtrace/provider.hpp>

extern "C" {
#include "dif_emulate.h"
#include "dif_validate.h"
}

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace dt::test {

inline compiler::settings default_settings()
{
	compiler::settings s;
	s.macro_args = {"dtrace"};
	return s;
}

inline ::testing::AssertionResult valid(const difo &d)
{
	dif_difo_t dp{};
	dp.text = d.text.data();
	dp.len = static_cast<uint32_t>(d.text.size());
	dp.inttab = d.inttab.data();
	dp.intlen = static_cast<uint32_t>(d.inttab.size());
	dp.strtab = d.strtab.data();
	dp.strlen = static_cast<uint32_t>(d.strtab.size());
	dp.vartab = d.vartab.data();
	dp.varlen = static_cast<uint32_t>(d.vartab.size());
	dp.rtype = d.rtype;
	dif_limits_t lim = DIF_LIMITS_DEFAULT;
	dif_verr_t err{};
	if (dif_validate(&dp, &lim, &err) != 0)
		return ::testing::AssertionFailure()
		       << "dif_validate: " << err.reason << " at " << err.offset;
	return ::testing::AssertionSuccess();
}

// Every DIF object of the program passes dif_validate().
inline void expect_all_valid(const program &p)
{
	for (const auto &c : p.clauses) {
		if (c.predicate) {
			EXPECT_TRUE(valid(*c.predicate));
		}
		for (const auto &a : c.actions) {
			for (const auto &r : a.args)
				EXPECT_TRUE(valid(r.expr));
			for (const auto &r : a.keys)
				EXPECT_TRUE(valid(r.expr));
		}
	}
}

inline program compile_n(const std::string &text, compiler::settings s = default_settings())
{
	compiler::input in;
	in.k = compiler::input::kind::name;
	in.text = text;
	program p = compiler::compile({in}, s);
	expect_all_valid(p);
	return p;
}

inline program compile_s(const std::string &text, compiler::settings s = default_settings())
{
	compiler::input in;
	in.k = compiler::input::kind::script;
	in.text = text;
	in.file = "test.d";
	program p = compiler::compile({in}, s);
	expect_all_valid(p);
	return p;
}

// The diagnostic of a failing compilation: "TAG: what()".
inline std::string error_of(const std::string &text, bool script = false,
			    compiler::settings s = default_settings())
{
	compiler::input in;
	in.k = script ? compiler::input::kind::script : compiler::input::kind::name;
	in.text = text;
	in.file = script ? "test.d" : "";
	try {
		(void)compiler::compile({in}, s);
	} catch (const compiler::compile_error &e) {
		return e.diag().tag + ": " + e.what();
	}
	return "(compiled)";
}

// A tiny environment: probe args are 10*n, builtins return their id,
// memory is the host's.
struct mini_env {
	static uint64_t load(void *, uint64_t addr, uint32_t size, enum dif_space, uint16_t *)
	{
		uint64_t v = 0;
		std::memcpy(&v, reinterpret_cast<const void *>(addr), size);
		return v;
	}
	static uint64_t copystr(void *, uint64_t addr, char *dst, uint64_t max, enum dif_space,
				uint16_t *)
	{
		const char *s = reinterpret_cast<const char *>(addr);
		uint64_t n = 0;
		while (n + 1 < max && s[n]) {
			dst[n] = s[n];
			n++;
		}
		dst[n] = '\0';
		return n;
	}
	static uint64_t builtin(void *, uint32_t id, uint64_t, uint16_t *)
	{
		if (id == DIF_VAR_EXECNAME)
			return reinterpret_cast<uint64_t>("dtrace");
		return id;
	}
	static uint64_t getarg(void *, uint64_t n, uint16_t *) { return n * 10; }
};

// Run a DIF object that uses no variables; returns rval (fault: ~0).
inline uint64_t run(const difo &d, uint16_t *fault = nullptr)
{
	static dif_env_ops_t ops = [] {
		dif_env_ops_t o{};
		o.load = mini_env::load;
		o.copystr = mini_env::copystr;
		o.builtin = mini_env::builtin;
		o.getarg = mini_env::getarg;
		return o;
	}();
	dif_difo_t dp{};
	dp.text = d.text.data();
	dp.len = static_cast<uint32_t>(d.text.size());
	dp.inttab = d.inttab.data();
	dp.intlen = static_cast<uint32_t>(d.inttab.size());
	dp.strtab = d.strtab.data();
	dp.strlen = static_cast<uint32_t>(d.strtab.size());
	dp.vartab = d.vartab.data();
	dp.varlen = static_cast<uint32_t>(d.vartab.size());
	dp.rtype = d.rtype;
	static char scratch[4096];
	dif_ctx_t c{};
	c.ops = &ops;
	c.difo = &dp;
	c.scratch = scratch;
	c.scratch_size = sizeof(scratch);
	c.strsize = 256;
	int f = dif_emulate(&c);
	if (fault)
		*fault = static_cast<uint16_t>(f);
	return f ? ~0ull : c.rval;
}

// Opcodes of a DIF object, for shape checks.
inline std::vector<uint8_t> ops_of(const difo &d)
{
	std::vector<uint8_t> v;
	for (auto i : d.text)
		v.push_back(static_cast<uint8_t>(DIF_INSTR_OP(i)));
	return v;
}

inline bool has_op(const difo &d, uint8_t op)
{
	for (auto i : d.text)
		if (DIF_INSTR_OP(i) == op)
			return true;
	return false;
}

} // namespace dt::test
