// SPDX-License-Identifier: MIT
//
// options_test.cc - the option table (dtrace/options.hpp): illumos
// dt_options.c's names and value readings, the defaults the engines and
// the compiler take, the model's limits, DTrace's error words, and the
// run-time options a negative word unsets.
#include <dtrace/options.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using dt::buffer_policy;
using dt::option_error;
using dt::option_kind;
using dt::option_unsets;
using dt::option_value_error;
using dt::pragma_option_error;
using dt::resolve_options;
using dt::resolved_options;
using opts = std::map<std::string, std::string>;

constexpr const char *k_bad_value = "Invalid value for specified option";

// resolve_options() on one NAME=VALUE; the message it throws, or "".
std::string resolve_error(const std::string &name, const std::string &value)
{
	try {
		(void)resolve_options({{name, value}});
	} catch (const option_value_error &e) {
		return e.what();
	}
	return "";
}

TEST(options, table_names_are_unique_and_found)
{
	std::set<std::string> seen;
	for (const dt::option_info &o : dt::option_table()) {
		EXPECT_TRUE(seen.insert(o.name).second) << o.name;
		EXPECT_EQ(dt::find_option(o.name), &o);
		EXPECT_LE(o.min, o.max) << o.name;
		EXPECT_GE(o.dflt, o.min) << o.name;
		EXPECT_LE(o.dflt, o.max) << o.name;
	}
	EXPECT_EQ(dt::find_option("nosuchoption"), nullptr);
	EXPECT_EQ(dt::find_option("bufsiz"), nullptr);
}

TEST(options, defaults_when_unset)
{
	const resolved_options o = resolve_options({});
	EXPECT_EQ(o.bufsize, 4u << 20);
	EXPECT_EQ(o.bufpolicy, buffer_policy::switch_);
	EXPECT_EQ(o.aggsize, 4u << 20);
	EXPECT_EQ(o.dynvarsize, 1u << 20);
	EXPECT_EQ(o.strsize, 257u); // 256 characters and their NUL
	EXPECT_EQ(o.nspec, 1u);
	EXPECT_EQ(o.specsize, 32u << 10);
	EXPECT_EQ(o.aggrate, 1000000000u);
	EXPECT_EQ(o.switchrate, 1000000000u);
	EXPECT_EQ(o.statusrate, 1000000000u);
	EXPECT_EQ(o.cleanrate, 0u); // the engine's own (dtrace.ko: 101 Hz)
	EXPECT_EQ(o.stackframes, 20u);
	EXPECT_EQ(o.ustackframes, 100u);
	EXPECT_EQ(o.jstackframes, 50u);
	EXPECT_EQ(o.jstackstrsize, 512u);
	EXPECT_FALSE(o.destructive);
	EXPECT_FALSE(o.quiet);
	EXPECT_FALSE(o.flowindent);
}

TEST(options, defaults_come_from_the_table)
{
	const resolved_options o = resolve_options({});
	EXPECT_EQ(o.bufsize, dt::find_option("bufsize")->dflt);
	EXPECT_EQ(o.nspec, dt::find_option("nspec")->dflt);
	EXPECT_EQ(o.stackframes, dt::find_option("stackframes")->dflt);
	EXPECT_EQ(o.switchrate, dt::find_option("switchrate")->dflt);
	// An empty count or a negative word is the default too.
	EXPECT_EQ(resolve_options({{"nspec", ""}}).nspec, 1u);
	EXPECT_EQ(resolve_options({{"stackframes", "no"}}).stackframes, 20u);
}

TEST(options, sizes_read_as_dt_opt_size)
{
	EXPECT_EQ(resolve_options({{"bufsize", "4k"}}).bufsize, 4096u);
	EXPECT_EQ(resolve_options({{"bufsize", "2M"}}).bufsize, 2u << 20);
	EXPECT_EQ(resolve_options({{"aggsize", "1g"}}).aggsize, 1ull << 30);
	EXPECT_EQ(resolve_options({{"dynvarsize", "1t"}}).dynvarsize, 1ull << 40);
	EXPECT_EQ(resolve_options({{"specsize", "0x100"}}).specsize, 256u);
	EXPECT_EQ(resolve_options({{"jstackstrsize", "1k"}}).jstackstrsize, 1024u);
	for (const char *bad : {"4q", "", "-1", "k", "4kk"}) {
		EXPECT_STREQ(option_error("bufsize", bad, true), k_bad_value) << bad;
		EXPECT_EQ(resolve_error("bufsize", bad),
			  std::string("invalid value for option bufsize: ") + bad);
	}
	// The bare `-x bufsize`: a size needs a value.
	EXPECT_STREQ(option_error("bufsize", "", false), k_bad_value);
}

TEST(options, rates_read_as_dt_opt_rate)
{
	EXPECT_EQ(resolve_options({{"switchrate", "10hz"}}).switchrate, 100000000u);
	EXPECT_EQ(resolve_options({{"aggrate", "5ms"}}).aggrate, 5000000u);
	EXPECT_EQ(resolve_options({{"aggrate", "2sec"}}).aggrate, 2000000000u);
	EXPECT_EQ(resolve_options({{"statusrate", "1m"}}).statusrate, 60000000000u);
	EXPECT_EQ(resolve_options({{"cleanrate", "50HZ"}}).cleanrate, 20000000u);
	EXPECT_EQ(resolve_options({{"switchrate", "300"}}).switchrate, 300u); // ns
	for (const char *bad : {"0hz", "10parsecs", "", "-5ms", "ms"}) {
		EXPECT_STREQ(option_error("switchrate", bad, true), k_bad_value) << bad;
		EXPECT_EQ(resolve_error("switchrate", bad),
			  std::string("invalid value for option switchrate: ") + bad);
	}
}

TEST(options, counts_read_as_dt_opt_runtime)
{
	EXPECT_EQ(resolve_options({{"nspec", "4"}}).nspec, 4u);
	EXPECT_EQ(resolve_options({{"nspec", "0x10"}}).nspec, 16u);
	EXPECT_EQ(resolve_options({{"stackframes", "7"}}).stackframes, 7u);
	EXPECT_EQ(resolve_options({{"ustackframes", "3"}}).ustackframes, 3u);
	EXPECT_EQ(resolve_options({{"jstackframes", "9"}}).jstackframes, 9u);
	// illumos: a positive word is 1.
	EXPECT_EQ(resolve_options({{"nspec", "yes"}}).nspec, 1u);
	EXPECT_EQ(resolve_options({{"stackframes", "On"}}).stackframes, 1u);
	for (const char *bad : {"4k", "-1", "many", "1.5"}) {
		EXPECT_STREQ(option_error("nspec", bad, true), k_bad_value) << bad;
		EXPECT_EQ(resolve_error("nspec", bad),
			  std::string("invalid value for option nspec: ") + bad);
	}
	EXPECT_EQ(option_error("nspec", "", false), nullptr); // bare: allowed
}

TEST(options, limits_clamp)
{
	EXPECT_EQ(resolve_options({{"strsize", "0"}}).strsize, 2u);
	EXPECT_EQ(resolve_options({{"strsize", "8g"}}).strsize, UINT32_MAX);
	EXPECT_EQ(resolve_options({{"nspec", "0x200000000"}}).nspec, UINT32_MAX);
	EXPECT_EQ(resolve_options({{"stackframes", "0x200000000"}}).stackframes, UINT32_MAX);
	EXPECT_EQ(resolve_options({{"nspec", "0"}}).nspec, 0u);
}

TEST(options, bufpolicy_and_bufresize)
{
	EXPECT_EQ(resolve_options({{"bufpolicy", "fill"}}).bufpolicy, buffer_policy::fill);
	EXPECT_EQ(resolve_options({{"bufpolicy", "ring"}}).bufpolicy, buffer_policy::ring);
	EXPECT_EQ(resolve_options({{"bufpolicy", "switch"}}).bufpolicy, buffer_policy::switch_);
	EXPECT_STREQ(option_error("bufpolicy", "spill", true), k_bad_value);
	EXPECT_STREQ(option_error("bufpolicy", "", false), k_bad_value);
	EXPECT_EQ(resolve_error("bufpolicy", "spill"), "invalid value for option bufpolicy: spill");
	EXPECT_EQ(option_error("bufresize", "auto", true), nullptr);
	EXPECT_EQ(option_error("bufresize", "manual", true), nullptr);
	EXPECT_STREQ(option_error("bufresize", "grow", true), k_bad_value);
}

TEST(options, names_and_free_form_values)
{
	EXPECT_STREQ(option_error("nosuchoption", "1", true), "Invalid option name");
	EXPECT_STREQ(option_error("nosuchoption", "", false), "Invalid option name");
	EXPECT_EQ(option_error("cpppath", "/usr/bin/cpp", true), nullptr);
	EXPECT_EQ(option_error("lazyload", "anything at all", true), nullptr);
	EXPECT_EQ(option_error("engine", "", false), nullptr);
	// Unknown names in a map are not resolve_options()' business.
	EXPECT_EQ(resolve_error("nosuchoption", "x"), "");
}

// illumos dt_opt_*: what each free-form option's function accepts.
TEST(options, free_form_values_as_their_dt_opt_functions_read_them)
{
	const char *bad = "Invalid value for specified option";
	// Flags (dt_opt_cflags() ...) take no value.
	EXPECT_EQ(option_error("zdefs", "", false), nullptr);
	EXPECT_STREQ(option_error("zdefs", "1", true), bad);
	EXPECT_STREQ(option_error("errtags", "", true), bad);
	EXPECT_EQ(option_error("knodefs", "", false), nullptr);
	EXPECT_EQ(option_error("kdefs", "", false), nullptr);
	EXPECT_STREQ(option_error("kdefs", "1", true), bad);
	// Paths need one.
	EXPECT_STREQ(option_error("cpppath", "", false), bad);
	EXPECT_STREQ(option_error("libdir", "", false), bad);
	// Words: linkmode and evaltime as written, linktype in any case.
	EXPECT_EQ(option_error("linkmode", "primary", true), nullptr);
	EXPECT_STREQ(option_error("linkmode", "DYNAMIC", true), bad);
	EXPECT_EQ(option_error("linktype", "ELF", true), nullptr);
	EXPECT_STREQ(option_error("linktype", "coff", true), bad);
	EXPECT_EQ(option_error("evaltime", "postinit", true), nullptr);
	EXPECT_STREQ(option_error("evaltime", "anything at all", true), bad);
	// Numbers.
	EXPECT_EQ(option_error("iregs", "8", true), nullptr);
	EXPECT_STREQ(option_error("iregs", "0", true), bad);
	EXPECT_EQ(option_error("pgmax", "0", true), nullptr);
	EXPECT_STREQ(option_error("pgmax", "-1", true), bad);
	// Attributes: name[/data[/class]].
	EXPECT_EQ(option_error("amin", "Stable", true), nullptr);
	EXPECT_EQ(option_error("amin", "private/Evolving/ISA", true), nullptr);
	EXPECT_STREQ(option_error("amin", "Stable/Stable/Stable", true), bad);
	EXPECT_STREQ(option_error("amin", "Stable/Stable/CPU/x", true), bad);
}

TEST(options, version_as_dt_opt_version_reads_it)
{
	EXPECT_EQ(option_error("version", "1.0", true), nullptr);
	EXPECT_EQ(option_error("version", "1.6.3", true), nullptr);
	EXPECT_EQ(option_error("version", "1.13", true), nullptr);
	EXPECT_STREQ(option_error("version", "1.14", true),
		     "Requested version is not supported by compiler");
	EXPECT_STREQ(option_error("version", "1.2.3.4", true),
		     "Version is not properly formatted or is too large");
	EXPECT_STREQ(option_error("version", "one", true),
		     "Version is not properly formatted or is too large");
}

TEST(options, cpp_and_ld_options_only_from_the_command_line)
{
	const char *ctx = "Option cannot be used from within a D program";
	for (const char *n : {"cpppath", "define", "incdir", "undef", "ldpath"})
		EXPECT_STREQ(pragma_option_error(n, "x", true), ctx) << n;
	EXPECT_STREQ(pragma_option_error("cpphdrs", "", false), ctx);
	EXPECT_STREQ(pragma_option_error("stdc", "a", true), ctx);
	EXPECT_EQ(pragma_option_error("quiet", "", false), nullptr);
	EXPECT_STREQ(pragma_option_error("nosuchoption", "", false), "Invalid option name");
}

TEST(options, negative_words_unset_runtime_options)
{
	for (const char *w : {"no", "disable", "disabled", "false", "off", "unset", "OFF"}) {
		EXPECT_TRUE(option_unsets("quiet", w)) << w;
		EXPECT_EQ(option_error("quiet", w, true), nullptr) << w;
		EXPECT_FALSE(resolve_options({{"quiet", w}}).quiet) << w;
	}
	for (const char *w : {"yes", "enable", "enabled", "true", "on", "set", "", "0"}) {
		EXPECT_FALSE(option_unsets("quiet", w)) << w;
		EXPECT_TRUE(resolve_options({{"quiet", w}}).quiet) << w;
	}
	EXPECT_FALSE(option_unsets("bufsize", "no")); // a size: "no" is just bad
	EXPECT_FALSE(option_unsets("evaltime", "no"));
	EXPECT_FALSE(option_unsets("nosuchoption", "no"));
	EXPECT_TRUE(resolve_options({{"destructive", ""}}).destructive);
	EXPECT_TRUE(resolve_options({{"flowindent", ""}}).flowindent);
}

// What option_error() accepts always resolves (the engines and the
// compiler rely on it: the CLI and #pragma check every value).
TEST(options, every_accepted_value_resolves)
{
	const char *values[] = {"",	"0",   "1",    "yes",  "no",   "4k", "1m",
				"10hz", "5ms", "fill", "ring", "auto", "x",  "-1"};
	for (const dt::option_info &o : dt::option_table()) {
		for (const char *v : values) {
			if (!option_error(o.name, v, true) && !option_unsets(o.name, v)) {
				EXPECT_EQ(resolve_error(o.name, v), "") << o.name << "=" << v;
			}
		}
	}
}

// oformat and stackfmt (docs/json.md) take their words and nothing else.
TEST(options, output_formats_take_their_words)
{
	for (const char *v : {"text", "json"})
		EXPECT_EQ(option_error("oformat", v, true), nullptr) << v;
	for (const char *v : {"text", "folded"})
		EXPECT_EQ(option_error("stackfmt", v, true), nullptr) << v;
	for (const char *v : {"xml", "html", "JSON", "", "folded"})
		EXPECT_STREQ(option_error("oformat", v, true), "Invalid value for specified option")
			<< v;
	EXPECT_STREQ(option_error("oformat", "", false), "Invalid value for specified option");
	EXPECT_STREQ(option_error("stackfmt", "json", true), "Invalid value for specified option");
	EXPECT_EQ(dt::find_option("oformat")->readers, dt::k_read_consumer);
	EXPECT_EQ(dt::find_option("stackfmt")->readers, dt::k_read_consumer);
}

TEST(options, kinds_phases_and_readers)
{
	EXPECT_EQ(dt::find_option("bufsize")->kind, option_kind::size);
	EXPECT_EQ(dt::find_option("switchrate")->kind, option_kind::rate);
	EXPECT_EQ(dt::find_option("quiet")->kind, option_kind::runtime);
	EXPECT_EQ(dt::find_option("bufpolicy")->kind, option_kind::policy);
	EXPECT_EQ(dt::find_option("cpppath")->kind, option_kind::text);
	EXPECT_EQ(dt::find_option("stackframes")->phase, dt::option_phase::compile);
	EXPECT_EQ(dt::find_option("bufsize")->phase, dt::option_phase::run);
	EXPECT_EQ(dt::find_option("bufsize")->readers & dt::k_read_engines, dt::k_read_engines);
	EXPECT_EQ(dt::find_option("cleanrate")->readers, dt::k_read_kmod);
	EXPECT_EQ(dt::find_option("aggrate")->readers & dt::k_read_user, 0);
}

// maxframes: unset is no limit (0); set, the compiler and the bpf engine
// read it (frames of stack records, stackdepth and ustackdepth).
TEST(options, maxframes_is_a_frame_limit)
{
	EXPECT_EQ(resolve_options({}).maxframes, 0u);
	EXPECT_EQ(resolve_options({{"maxframes", "25"}}).maxframes, 25u);
	EXPECT_EQ(dt::find_option("maxframes")->phase, dt::option_phase::compile);
	EXPECT_EQ(dt::find_option("maxframes")->readers, dt::k_read_compiler | dt::k_read_bpf);
}

} // namespace
