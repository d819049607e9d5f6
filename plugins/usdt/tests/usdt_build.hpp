// SPDX-License-Identifier: MIT
//
// usdt_build.hpp - the programs of a USDT runtime test, built the way a
// user builds them: a provider file through our `dtrace -h`, then cc, in a
// scratch directory of the test's own that goes when the test ends.
//
//   REQUIRE_CC();                       // skips, saying why, without cc
//   dt::test::usdt_build b("dt_usdt_x");  // <tmp>/dt_usdt_x_<pid>/
//   if (b.header("prov", k_provider) && b.cc({"app.c", "-o", ...}, "main"))
//           ... b.dir / "app" ...
//   ASSERT_TRUE(b.ok) << b.err;
#pragma once

#include "cli_support.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace dt::test {

inline const char *const k_usdt_cc = "/usr/bin/cc";

#define REQUIRE_CC()                                                                              \
	do {                                                                                      \
		if (!std::filesystem::exists(dt::test::k_usdt_cc))                                \
			GTEST_SKIP()                                                              \
				<< "no C compiler (" << dt::test::k_usdt_cc << ") to build with"; \
	} while (0)

struct usdt_build {
	std::filesystem::path dir;
	std::string err; // what failed, when a step returned false
	bool ok = true;	 // every step so far succeeded

	explicit usdt_build(const std::string &name)
		: dir(std::filesystem::temp_directory_path() /
		      (name + "_" + std::to_string(getpid())))
	{
		std::filesystem::create_directories(dir);
	}
	~usdt_build() { std::filesystem::remove_all(dir); }
	usdt_build(const usdt_build &) = delete;
	usdt_build &operator=(const usdt_build &) = delete;

	// <dir>/<name> holding `text`.
	void write(const std::string &name, const std::string &text) const
	{
		std::ofstream(dir / name) << text;
	}
	// <dir>/<stem>.d holding `provider`, and <dir>/<stem>.h from dtrace -h.
	bool header(const std::string &stem, const std::string &provider)
	{
		write(stem + ".d", provider);
		auto h = bpf_cli::dtrace(
			{"-h", "-s", dir / (stem + ".d"), "-o", dir / (stem + ".h")});
		return step(h.status == 0, "dtrace -h: " + h.err);
	}
	// cc -O1 -I <dir> ARGS; `what` names the step in err.
	bool cc(std::vector<std::string> args, const std::string &what)
	{
		args.insert(args.begin(), {k_usdt_cc, "-O1", "-I", dir.string()});
		auto c = run(args);
		return step(c.status == 0, "cc (" + what + "): " + c.err);
	}

private:
	bool step(bool good, const std::string &why)
	{
		if (ok && !good) {
			ok = false;
			err = why;
		}
		return ok;
	}
};

} // namespace dt::test
