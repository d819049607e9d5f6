// SPDX-License-Identifier: MIT
// D libraries are parsed always and checked only when the program uses
// them (compiler/driver.cc, needed_libraries()): a library whose names
// the program never mentions is not type-checked (its translators are not
// compiled, its kernel types not looked up), so an error in it shows only
// when it is used; a library used by a used library is checked first; a
// program that reads args[] gets every library; a syntax error in any
// library is still reported.
#include "helpers.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace dt::test {
namespace {

namespace fs = std::filesystem;

struct lib_dir {
	fs::path dir;
	lib_dir()
	{
		static int n = 0;
		dir = fs::temp_directory_path() /
		      ("dt-lazylib-" + std::to_string(getpid()) + "-" + std::to_string(n++));
		fs::create_directories(dir);
	}
	~lib_dir() { fs::remove_all(dir); }
	void add(const std::string &name, const std::string &text) const
	{
		std::ofstream(dir / name) << text;
	}
	[[nodiscard]] compiler::settings settings() const
	{
		compiler::settings s = default_settings();
		s.libdirs.push_back(dir.string());
		return s;
	}
};

// A library whose check fails: a string where an int is declared.
constexpr const char *k_broken = "typedef int lazy_t;\n"
				 "inline int lazy_broken = \"not an int\";\n";

TEST(lazy_library, an_unused_library_is_not_checked)
{
	lib_dir d;
	d.add("broken.d", k_broken);
	EXPECT_EQ(error_of("BEGIN { exit(0); }", false, d.settings()), "(compiled)");
	EXPECT_EQ(error_of("BEGIN { lazy_nothing = 1; }", false, d.settings()), "(compiled)");
}

TEST(lazy_library, a_library_whose_name_is_used_is_checked)
{
	lib_dir d;
	d.add("broken.d", k_broken);
	// Its inline, or its typedef: the library is checked, and its error
	// names it as before.
	std::string e = error_of("BEGIN { trace(lazy_broken); }", false, d.settings());
	EXPECT_EQ(e.rfind("D_OP_INCOMPAT", 0), 0u) << e;
	e = error_of("BEGIN { trace((lazy_t)1); }", false, d.settings());
	EXPECT_EQ(e.rfind("D_OP_INCOMPAT", 0), 0u) << e;
}

TEST(lazy_library, a_used_library_brings_the_libraries_it_uses)
{
	lib_dir d;
	d.add("a_base.d", "typedef int lazy_base_t;\ninline lazy_base_t lazy_one = 1;\n");
	d.add("b_user.d", "inline lazy_base_t lazy_two = lazy_one + 1;\n");
	d.add("c_broken.d", k_broken);
	program p = compile_n("BEGIN { trace(lazy_two); exit(0); }", d.settings());
	EXPECT_EQ(p.clauses.size(), 1u);
}

TEST(lazy_library, a_program_reading_args_checks_every_library)
{
	lib_dir d;
	d.add("broken.d", k_broken);
	std::string e = error_of("BEGIN { trace(args[0]); }", false, d.settings());
	EXPECT_EQ(e.rfind("D_OP_INCOMPAT", 0), 0u) << e;
}

TEST(lazy_library, a_syntax_error_in_any_library_is_reported)
{
	lib_dir d;
	d.add("syntax.d", "inline int lazy_x = ;\n");
	std::string e = error_of("BEGIN { exit(0); }", false, d.settings());
	EXPECT_EQ(e.rfind("D_SYNTAX", 0), 0u) << e;
}

} // namespace
} // namespace dt::test
