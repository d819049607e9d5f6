// SPDX-License-Identifier: MIT
// dtrace -G beyond provider definitions, and the options that steer it:
// a D program is compiled and linked into an object (d.out for -n and
// stdin scripts, NAME.o for NAME.d, dtrace.out for -P/-m/-f/-i, -o FILE);
// the object goes through the linker -x ldpath names (its failure is
// DTrace's message); -x linktype=dof writes the record alone, not ELF;
// -x strip leaves the comment and system name out of the record; a
// program that does not compile links nothing. (The DTrace-style USDT
// flow itself: plugins/usdt/tests/usdt_dtrace_flow_test.cc.)
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct scratch {
	fs::path dir;
	scratch()
	{
		dir = fs::temp_directory_path() / ("dt-link-" + std::to_string(getpid()));
		fs::remove_all(dir);
		fs::create_directories(dir);
	}
	~scratch() { fs::remove_all(dir); }

	// dtrace `args` run in the scratch directory (-G writes there).
	[[nodiscard]] dt::test::result dtrace(const std::string &args) const
	{
		return dt::test::run({"/bin/sh", "-c",
				      "cd '" + dir.string() + "' && exec '" +
					      dt::test::dtrace_bin() + "' " + args});
	}
	[[nodiscard]] std::string read(const std::string &name) const
	{
		std::ifstream in(dir / name, std::ios::binary);
		std::stringstream ss;
		ss << in.rdbuf();
		return ss.str();
	}
	void write(const std::string &name, const std::string &text) const
	{
		std::ofstream(dir / name) << text;
	}
};

bool is_elf(const std::string &bytes)
{
	return bytes.rfind("\x7f"
			   "ELF",
			   0) == 0;
}

TEST(LinkObject, ADescriptionLinksToDOut)
{
	scratch s;
	auto r = s.dtrace("-G -n 'BEGIN { exit(0); }'");
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	std::string o = s.read("d.out");
	EXPECT_TRUE(is_elf(o));
	EXPECT_NE(o.find("BEGIN { exit(0); }"), std::string::npos);
}

TEST(LinkObject, ObjectNamesFollowTheProgram)
{
	scratch s;
	s.write("trace_it.d", "BEGIN { exit(0); }\n");
	ASSERT_EQ(s.dtrace("-G -s trace_it.d").status, 0);
	EXPECT_TRUE(is_elf(s.read("trace_it.o")));
	ASSERT_EQ(s.dtrace("-G -s /dev/stdin < trace_it.d").status, 0);
	EXPECT_TRUE(is_elf(s.read("d.out")));
	ASSERT_EQ(s.dtrace("-G -P dtrace").status, 0);
	EXPECT_TRUE(is_elf(s.read("dtrace.out")));
	ASSERT_EQ(s.dtrace("-G -s trace_it.d -o mine.o").status, 0);
	EXPECT_TRUE(is_elf(s.read("mine.o")));
}

TEST(LinkObject, LinktypeDofWritesTheRecordAlone)
{
	scratch s;
	auto elf = s.dtrace("-G -x linktype=ELF -n 'BEGIN { exit(0); }' -o a.o");
	auto dof = s.dtrace("-G -x linktype=dof -n 'BEGIN { exit(0); }' -o b.o");
	ASSERT_EQ(elf.status, 0) << elf.err;
	ASSERT_EQ(dof.status, 0) << dof.err;
	EXPECT_TRUE(is_elf(s.read("a.o")));
	std::string rec = s.read("b.o");
	EXPECT_FALSE(is_elf(rec));
	EXPECT_EQ(rec.rfind("dtrace -G program record 1\n", 0), 0U) << rec;
	auto bad = s.dtrace("-G -x linktype=coff -n 'BEGIN { exit(0); }'");
	EXPECT_EQ(bad.status, 1);
	EXPECT_EQ(bad.err,
		  "dtrace: failed to set -x linktype: Invalid value for specified option\n");
}

TEST(LinkObject, StripLeavesTheCommentAndSystemNameOut)
{
	scratch s;
	ASSERT_EQ(s.dtrace("-G -x linktype=dof -n 'BEGIN { exit(0); }' -o full").status, 0);
	ASSERT_EQ(
		s.dtrace("-G -x linktype=dof -x strip -n 'BEGIN { exit(0); }' -o stripped").status,
		0);
	std::string full = s.read("full"), stripped = s.read("stripped");
	EXPECT_NE(full.find("\ncomment: "), std::string::npos) << full;
	EXPECT_NE(full.find("\nutsname: "), std::string::npos) << full;
	EXPECT_EQ(stripped.find("\ncomment: "), std::string::npos) << stripped;
	EXPECT_EQ(stripped.find("\nutsname: "), std::string::npos) << stripped;
	EXPECT_NE(stripped.find("BEGIN { exit(0); }"), std::string::npos) << stripped;
}

TEST(LinkObject, TheLinkerIsTheOneLdpathNames)
{
	scratch s;
	s.write("prog.d", "BEGIN { exit(0); }\n");
	auto r = s.dtrace("-G -x ldpath=/nonexistent/ld -s prog.d");
	EXPECT_EQ(r.status, 1);
	// the shell's complaint, then illumos' messages (the script's name
	// without .d, as illumos' link_prog() leaves it)
	EXPECT_NE(r.err.find("/nonexistent/ld"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("dtrace: failed to link script prog: failed to link prog.o: "
			     "/nonexistent/ld exited with status 127\n"),
		  std::string::npos)
		<< r.err;
	EXPECT_FALSE(fs::exists(s.dir / "prog.o"));
	// A linker that fails.
	auto f = s.dtrace("-G -x ldpath=false -n 'BEGIN { exit(0); }'");
	EXPECT_EQ(f.status, 1);
	EXPECT_EQ(f.err, "dtrace: failed to link description BEGIN { exit(0); }: failed to link "
			 "d.out: false exited with status 1\n");
}

TEST(LinkObject, AProgramThatDoesNotCompileLinksNothing)
{
	scratch s;
	auto r = s.dtrace("-G -n 'BEGIN { x = ; }'");
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err.rfind("dtrace: invalid probe specifier BEGIN { x = ; }: ", 0), 0U) << r.err;
	EXPECT_FALSE(fs::exists(s.dir / "d.out"));
	auto none = s.dtrace("-G");
	EXPECT_EQ(none.status, 2);
	EXPECT_NE(none.err.find("-G requires one or more scripts or enabling options"),
		  std::string::npos)
		<< none.err;
}

TEST(LinkObject, ProviderDefinitionsWithoutObjects)
{
	scratch s;
	s.write("shop.d", "provider shop {\n\tprobe order__placed(int, char *);\n};\n");
	auto r = s.dtrace("-G -s shop.d");
	ASSERT_EQ(r.status, 0) << r.err;
	std::string o = s.read("shop.o");
	EXPECT_TRUE(is_elf(o));
	// the is-enabled function and the semaphore a program links against
	EXPECT_NE(o.find("__dtraceenabled_shop___order__placed"), std::string::npos);
	EXPECT_NE(o.find("shop_order__placed_semaphore"), std::string::npos);
}

} // namespace
