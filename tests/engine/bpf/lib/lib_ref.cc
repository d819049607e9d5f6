// SPDX-License-Identifier: MIT
//
// lib_ref.cc - the BPF library's string subroutines against the DIF
// interpreter (core/dif dif_subr, the semantics the library follows): the
// same strings and arguments go to both, over exhaustive small cases and
// random longer ones, and the results must be equal.
#include "lib_fixture.hpp"

#include <array>
#include <cstdint>
#include <random>

extern "C" {
#include "dif_env.h"
uint64_t dif_subr(dif_ctx_t *c, uint32_t subr, uint64_t strsize);
}

namespace {

using namespace bpflib_test;

constexpr uint64_t SS = 256;

// The interpreter's environment: loads read this process's memory (the
// test's own strings); nothing else is needed by the string subroutines.
uint64_t ref_load(void *, uint64_t addr, uint32_t size, enum dif_space, uint16_t *fault)
{
	if (addr < 4096) {
		*fault = DTRACEFLT_BADADDR;
		return 0;
	}
	uint64_t v = 0;
	std::memcpy(&v, reinterpret_cast<const void *>(addr), size);
	return v;
}
uint64_t ref_copystr(void *, uint64_t addr, char *dst, uint64_t max, enum dif_space,
		     uint16_t *)
{
	const char *s = reinterpret_cast<const char *>(addr);
	uint64_t n = strnlen(s, max - 1);
	std::memcpy(dst, s, n);
	dst[n] = 0;
	return n;
}
uint64_t ref_builtin(void *, uint32_t, uint64_t, uint16_t *fault)
{
	*fault = DTRACEFLT_ILLOP;
	return 0;
}
uint64_t ref_getarg(void *, uint64_t, uint16_t *fault)
{
	*fault = DTRACEFLT_ILLOP;
	return 0;
}

struct ref_result {
	uint64_t v = 0;
	uint16_t fault = 0;
	std::string str; // the string at v when the subroutine returns one
};

// Run subroutine subr in the interpreter with D arguments args.
ref_result interp(uint32_t subr, std::initializer_list<uint64_t> args, bool str_result,
		  uint64_t strsize = SS)
{
	static dif_env_ops_t ops = [] {
		dif_env_ops_t o{};
		o.load = ref_load;
		o.copystr = ref_copystr;
		o.builtin = ref_builtin;
		o.getarg = ref_getarg;
		return o;
	}();
	static std::vector<char> scratch(64 * 1024);
	static const dif_difo_t difo{};
	dif_ctx_t c{};
	c.ops = &ops;
	c.difo = &difo;
	c.scratch = scratch.data();
	c.scratch_size = scratch.size();
	c.strsize = strsize;
	uint32_t n = 0;
	for (uint64_t a : args)
		c.tupregs[n++].value = a;
	c.ttop = n;
	ref_result r;
	r.v = dif_subr(&c, subr, strsize);
	r.fault = c.fault;
	if (str_result && r.v && !r.fault)
		r.str = reinterpret_cast<const char *>(r.v);
	return r;
}

// Strings placed once in dt_globals (kernel memory to the library) and
// kept in this process for the interpreter, at the same offsets.
struct strings {
	std::vector<std::string> s;
	std::vector<uint64_t> k; // kernel addresses
	std::vector<std::string> host;
	void place(uint32_t base)
	{
		std::vector<uint8_t> blob;
		k.clear();
		for (auto &x : s) {
			k.push_back(L().kbase + base + blob.size());
			blob.insert(blob.end(), x.begin(), x.end());
			blob.push_back(0);
			while (blob.size() % 8)
				blob.push_back(0);
		}
		L().kput(base, blob.data(), blob.size());
		host = s;
	}
	uint64_t h(size_t i) const { return reinterpret_cast<uint64_t>(host[i].c_str()); }
};

std::vector<std::string> all_ab(int maxlen)
{
	std::vector<std::string> v = {""};
	for (size_t i = 0; i < v.size(); i++)
		if (static_cast<int>(v[i].size()) < maxlen) {
			v.push_back(v[i] + "a");
			v.push_back(v[i] + "b");
		}
	return v;
}

TEST(BpfLibRef, IndexRindexStrstrExhaustive)
{
	NEED_LIB();
	auto &l = L();
	strings texts, subs;
	texts.s = all_ab(6);
	subs.s = all_ab(3);
	texts.place(0x1000);
	subs.place(0x4000);
	const int64_t starts[] = {-1, 0, 1, 2, 3, 5, 6, 7};
	int checked = 0;
	for (size_t t = 0; t < texts.s.size(); t++) {
		for (size_t u = 0; u < subs.s.size(); u++) {
			const std::string ctx = "\"" + texts.s[t] + "\", \"" + subs.s[u] + "\"";
			auto r = interp(DIF_SUBR_STRSTR, {texts.h(t), subs.h(u)}, false);
			uint64_t b = l.run("t_strstr", {SS, texts.k[t], subs.k[u]});
			EXPECT_EQ(b ? static_cast<int64_t>(b - texts.k[t]) : -1,
				  r.v ? static_cast<int64_t>(r.v - texts.h(t)) : -1)
				<< "strstr(" << ctx << ")";
			r = interp(DIF_SUBR_INDEX, {texts.h(t), subs.h(u)}, false);
			EXPECT_EQ(l.run("t_index", {SS, texts.k[t], subs.k[u], 0}), r.v)
				<< "index(" << ctx << ")";
			r = interp(DIF_SUBR_RINDEX, {texts.h(t), subs.h(u)}, false);
			EXPECT_EQ(l.run("t_rindex", {SS, texts.k[t], subs.k[u], DT_LIB_RINDEX_END_}), r.v)
				<< "rindex(" << ctx << ")";
			for (int64_t st : starts) {
				auto s = static_cast<uint64_t>(st);
				r = interp(DIF_SUBR_INDEX, {texts.h(t), subs.h(u), s}, false);
				EXPECT_EQ(l.run("t_index", {SS, texts.k[t], subs.k[u], s}), r.v)
					<< "index(" << ctx << ", " << st << ")";
				r = interp(DIF_SUBR_RINDEX, {texts.h(t), subs.h(u), s}, false);
				EXPECT_EQ(l.run("t_rindex", {SS, texts.k[t], subs.k[u], s}), r.v)
					<< "rindex(" << ctx << ", " << st << ")";
				checked += 2;
			}
			checked += 3;
			if (HasFailure())
				return;
		}
	}
	EXPECT_GT(checked, 10000);
}

TEST(BpfLibRef, IndexRindexStrstrLong)
{
	NEED_LIB();
	auto &l = L();
	std::mt19937 rng(12345);
	strings texts, subs;
	for (int i = 0; i < 60; i++) {
		int len = static_cast<int>(rng() % 250);
		std::string t;
		for (int k = 0; k < len; k++)
			t += static_cast<char>("abc"[rng() % (i % 2 ? 2 : 3)]);
		// A piece of the text (often found), or a random one.
		std::string u;
		int sl = 1 + static_cast<int>(rng() % (i < 40 ? 12 : 120));
		if (len && rng() % 3) {
			int at = static_cast<int>(rng() % len);
			u = t.substr(at, sl);
		} else {
			for (int k = 0; k < sl; k++)
				u += static_cast<char>("abc"[rng() % 2]);
		}
		texts.s.push_back(t);
		subs.s.push_back(u);
	}
	// Periodic text and pattern: KMP's failure links at work.
	texts.s.push_back(std::string(200, 'a') + "b" + std::string(50, 'a'));
	subs.s.push_back(std::string(70, 'a') + "b");
	texts.s.push_back("abababababababababababababac");
	subs.s.push_back("ababac");
	texts.place(0x1000);
	subs.place(0x8000);
	int found = 0;
	for (size_t i = 0; i < texts.s.size(); i++) {
		const std::string ctx = "case " + std::to_string(i);
		auto r = interp(DIF_SUBR_STRSTR, {texts.h(i), subs.h(i)}, false);
		uint64_t b = l.run("t_strstr", {SS, texts.k[i], subs.k[i]});
		EXPECT_EQ(b ? static_cast<int64_t>(b - texts.k[i]) : -1,
			  r.v ? static_cast<int64_t>(r.v - texts.h(i)) : -1)
			<< ctx;
		for (int64_t st : {int64_t{0}, int64_t{7}, int64_t{100}, int64_t{240}}) {
			auto s = static_cast<uint64_t>(st);
			r = interp(DIF_SUBR_INDEX, {texts.h(i), subs.h(i), s}, false);
			EXPECT_EQ(l.run("t_index", {SS, texts.k[i], subs.k[i], s}), r.v) << ctx << " " << st;
			r = interp(DIF_SUBR_RINDEX, {texts.h(i), subs.h(i), s}, false);
			EXPECT_EQ(l.run("t_rindex", {SS, texts.k[i], subs.k[i], s}), r.v) << ctx << " " << st;
		}
		r = interp(DIF_SUBR_RINDEX, {texts.h(i), subs.h(i)}, false);
		EXPECT_EQ(l.run("t_rindex", {SS, texts.k[i], subs.k[i], DT_LIB_RINDEX_END_}), r.v) << ctx;
		found += r.v != ~0ull;
	}
	EXPECT_GT(found, 20); // the cases do exercise matches
}

TEST(BpfLibRef, Strtoll)
{
	NEED_LIB();
	auto &l = L();
	struct {
		const char *s;
		uint64_t base;
	} v[] = {{"123", 10},	  {"  \t-42", 10}, {"+7", 10},	 {"0x1f", 16},	{"0X1F", 16},
		 {"0xg", 16},	  {"0x", 16},	   {"-0x10", 16}, {"zz", 36},	{"ZZ", 36},
		 {"101", 2},	  {"129", 8},	   {"", 10},	 {"-", 10},	{"12abc", 10},
		 {"777", 8},	  {"99999999999999999999", 10},	 {"1a", 10},	{"1a", 11},
		 {" ", 10},	  {"\t\t9", 10},   {"-9223372036854775808", 10}, {"0", 16},
		 {"00x5", 16},	  {"+-1", 10},	   {"ff", 16},	 {"fF", 16},	{"1 2", 10},
		 {"`", 36},	  {"{", 36},	   {"@", 36},	 {"[", 36},	{"/", 10},
		 {":", 10},	  {"1`", 36},	   {"0x`", 16}};
	strings s;
	for (auto &x : v)
		s.s.push_back(x.s);
	s.place(0x1000);
	for (size_t i = 0; i < s.s.size(); i++) {
		auto r = interp(DIF_SUBR_STRTOLL, {s.h(i), v[i].base}, false);
		EXPECT_EQ(l.run("t_strtoll", {SS, s.k[i], v[i].base}), r.v)
			<< "strtoll(\"" << v[i].s << "\", " << v[i].base << ")";
		EXPECT_EQ(l.fault(), 0u);
	}
	auto r10 = interp(DIF_SUBR_STRTOLL, {s.h(0)}, false); // base absent: 10
	EXPECT_EQ(l.run("t_strtoll", {SS, s.k[0], 10}), r10.v);
	l.run("t_strtoll", {SS, s.k[0], 37});
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_ILLOP));
	EXPECT_EQ(l.illval(), 37u);
}

TEST(BpfLibRef, StringsAgainstInterpreter)
{
	NEED_LIB();
	auto &l = L();
	strings s;
	s.s = {"",	    "/",	 "//",	       "a",	     "a/",	  "/a",	     "//a//b//",
	       "/usr/lib/", "usr/lib",	 "./x",	       "..",	     "a/b/c",	  "abc/",    "/a/b",
	       "Hello, World! 123 xyz", "MiXeD_cAsE@[`{", std::string(255, 'q'),
	       std::string(100, '/') + "x" + std::string(20, '/')};
	s.place(0x1000);
	for (size_t i = 0; i < s.s.size(); i++) {
		const std::string ctx = "\"" + s.s[i] + "\"";
		struct {
			const char *prog;
			uint32_t subr;
		} one[] = {{"t_basename", DIF_SUBR_BASENAME},
			   {"t_dirname", DIF_SUBR_DIRNAME},
			   {"t_toupper", DIF_SUBR_TOUPPER},
			   {"t_tolower", DIF_SUBR_TOLOWER}};
		for (auto &f : one) {
			auto r = interp(f.subr, {s.h(i)}, true);
			EXPECT_EQ(l.str(l.run(f.prog, {SS, s.k[i]})), r.str) << f.prog << "(" << ctx << ")";
		}
		EXPECT_EQ(l.run("t_strlen", {SS, s.k[i]}), interp(DIF_SUBR_STRLEN, {s.h(i)}, false).v);
		for (uint64_t c : {uint64_t{'/'}, uint64_t{'a'}, uint64_t{'q'}, uint64_t{'x'}, uint64_t{0}}) {
			auto r = interp(DIF_SUBR_STRCHR, {s.h(i), c}, false);
			uint64_t b = l.run("t_strchr", {SS, s.k[i], c});
			EXPECT_EQ(b ? b - s.k[i] : ~0ull, r.v ? r.v - s.h(i) : ~0ull)
				<< "strchr(" << ctx << ", " << c << ")";
			r = interp(DIF_SUBR_STRRCHR, {s.h(i), c}, false);
			b = l.run("t_strrchr", {SS, s.k[i], c});
			EXPECT_EQ(b ? b - s.k[i] : ~0ull, r.v ? r.v - s.h(i) : ~0ull)
				<< "strrchr(" << ctx << ", " << c << ")";
		}
		for (int64_t idx : {-300, -5, -1, 0, 1, 3, 200, 300})
			for (int64_t len : {-300, -2, 0, 1, 4, 300}) {
				auto r = interp(DIF_SUBR_SUBSTR,
						{s.h(i), static_cast<uint64_t>(idx), static_cast<uint64_t>(len)},
						true);
				EXPECT_EQ(l.str(l.run("t_substr", {SS, s.k[i], static_cast<uint64_t>(idx),
								   static_cast<uint64_t>(len)})),
					  r.str)
					<< "substr(" << ctx << ", " << idx << ", " << len << ")";
			}
		if (HasFailure())
			return;
	}
	for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{35}, INT64_MIN, INT64_MAX,
			  int64_t{123456789}})
		for (uint64_t base : {2, 8, 10, 16, 36}) {
			auto r = interp(DIF_SUBR_LLTOSTR, {static_cast<uint64_t>(v), base}, true);
			EXPECT_EQ(l.str(l.run("t_lltostr", {SS, static_cast<uint64_t>(v), base})), r.str)
				<< "lltostr(" << v << ", " << base << ")";
		}
}

TEST(BpfLibRef, Cleanpath)
{
	NEED_LIB();
	auto &l = L();
	strings s;
	s.s = {"",	       "/",	       "//",	       "/a/b",	       "/a//b",	   "/a/./b",
	       "/a/../b",      "/a/b/..",      "/a/b/../",     "/..",	       "/../a",	   "a/..",
	       "a/../b",       "/a/..b",       "/a/...",       "/a/.b",	       "/.",	   "/./",
	       "./a",	       "../a",	       "/a/b/c/../../d", "///a///./../b", "/.../..", "/a/..x/..",
	       "x//y/./z/../w/", std::string(200, '/') + "a", "/" + std::string(250, 'n') + "/.."};
	// (Paths up to strsize characters: the library reads no further; the
	// interpreter may, when the collapsed result stays shorter.)
	std::mt19937 rng(99);
	for (int i = 0; i < 200; i++) {
		std::string p;
		int n = static_cast<int>(rng() % 40);
		for (int k = 0; k < n; k++)
			p += "/./.a"[rng() % 5];
		s.s.push_back(p);
	}
	s.place(0x1000);
	for (size_t i = 0; i < s.s.size(); i++) {
		auto r = interp(DIF_SUBR_CLEANPATH, {s.h(i)}, true);
		EXPECT_EQ(l.str(l.run("t_cleanpath", {SS, s.k[i]})), r.str)
			<< "cleanpath(\"" << s.s[i] << "\")";
		EXPECT_EQ(l.fault(), 0u);
		if (HasFailure())
			return;
	}
}

TEST(BpfLibRef, InetNtopAndNtoa6)
{
	NEED_LIB();
	auto &l = L();
	std::vector<std::array<uint8_t, 16>> addrs = {
		{},										   // ::
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},				   // ::1
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 10},		   // mapped
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3},				   // compatible
		{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},		   // 2001:db8::1
		{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x1b, 0x21, 0xff, 0xfe, 0x3a, 0x4b, 0x5c},
		{0x20, 0x01, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},			   // two runs
		{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8},				   // no zero group
		{0x12, 0x34, 0, 0, 0x56, 0x78, 0, 0, 0, 0, 0x9a, 0xbc, 0, 0, 0, 0},
		{0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		 0xff, 0xff},
	};
	std::mt19937 rng(7);
	for (int i = 0; i < 60; i++) {
		std::array<uint8_t, 16> a{};
		for (auto &b : a)
			b = rng() % 3 ? 0 : static_cast<uint8_t>(rng());
		addrs.push_back(a);
	}
	for (auto &a : addrs) {
		uint64_t k = l.kput(0x2000, a.data(), 16);
		auto h = reinterpret_cast<uint64_t>(a.data());
		std::string ctx;
		for (uint8_t b : a)
			ctx += std::to_string(b) + ".";
		auto r = interp(DIF_SUBR_INET_NTOP, {10, h}, true);
		EXPECT_EQ(l.str(l.run("t_inet_ntop", {10, k})), r.str) << "inet_ntop(AF_INET6, " << ctx << ")";
		r = interp(DIF_SUBR_INET_NTOA6, {h}, true);
		EXPECT_EQ(l.str(l.run("t_inet_ntoa6", {k})), r.str) << "inet_ntoa6(" << ctx << ")";
		r = interp(DIF_SUBR_INET_NTOP, {2, h}, true);
		EXPECT_EQ(l.str(l.run("t_inet_ntop", {2, k})), r.str) << "inet_ntop(AF_INET, " << ctx << ")";
		if (HasFailure())
			return;
	}
	l.run("t_inet_ntop", {26, l.kbase});
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_ILLOP));
	EXPECT_EQ(l.illval(), 26u);
	l.run("t_inet_ntop", {10, 0xdead0000ull});
	EXPECT_EQ(l.fault(), static_cast<uint32_t>(DTRACEFLT_BADADDR));
}

TEST(BpfLibRef, Strtok)
{
	NEED_LIB();
	auto &l = L();
	struct {
		const char *s, *d1, *d2;
	} v[] = {{"a,b,,c", ",", ","},	     {",,lead,trail,,", ",", ","}, {"", ",", ","},
		 {",,,", ",", ","},	     {"no delims here", ",", ","}, {"one two\tthree", " \t", " "},
		 {"/usr/lib//x", "/", "/"}, {"key=val;k2=v2", "=", ";"},  {"abc", "", ""},
		 {"x", "x", "x"}};
	for (auto &t : v) {
		strings s;
		s.s = {t.s, t.d1, t.d2};
		s.place(0x3000);
		// The interpreter: four calls on one context (strtok keeps its position).
		static const dif_difo_t difo{};
		std::vector<char> scratch(8192);
		dif_env_ops_t ops{};
		ops.load = ref_load;
		ops.copystr = ref_copystr;
		ops.builtin = ref_builtin;
		ops.getarg = ref_getarg;
		dif_ctx_t c{};
		c.ops = &ops;
		c.difo = &difo;
		c.scratch = scratch.data();
		c.scratch_size = scratch.size();
		c.strsize = SS;
		std::vector<std::string> want;
		for (int i = 0; i < 4; i++) {
			c.tupregs[0].value = i == 0 ? s.h(0) : 0;
			c.tupregs[1].value = s.h(i == 0 ? 1 : 2);
			c.ttop = 2;
			uint64_t r = dif_subr(&c, DIF_SUBR_STRTOK, SS);
			if (c.fault)
				break;
			want.push_back(r ? reinterpret_cast<const char *>(r) : "<NULL>");
		}
		ASSERT_FALSE(want.empty()) << t.s;
		l.run("t_strtok", {SS, s.k[0], s.k[1], s.k[2], 3});
		std::vector<std::string> got;
		for (size_t i = 0; i < want.size(); i++)
			got.push_back(l.m()->regs[i] ? l.str(l.m()->regs[i]) : "<NULL>");
		EXPECT_EQ(got, want) << "strtok(\"" << t.s << "\", \"" << t.d1 << "\")";
		if (want.size() < 4) // the interpreter faulted (NULL after the end)
			EXPECT_EQ(l.fault(), static_cast<uint32_t>(c.fault));
		else
			EXPECT_EQ(l.fault(), 0u);
	}
}

} // namespace
