// SPDX-License-Identifier: MIT
//
// kmod_modules_test.cc - where the kmod engine looks for dtrace.ko and the
// provider modules (core/engine/kmod/modules.hpp): $DTRACE_KMOD_DIR first,
// beside the binary, the configured install, then where DKMS installs the
// dtrace-dkms package's build (/lib/modules/<release>/updates/dkms).
#include "modules.hpp"

#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <cstdlib>

TEST(KmodModules, SearchPathEndsWithDkms)
{
	struct utsname u {};
	ASSERT_EQ(uname(&u), 0);
	std::string rel = u.release;
	setenv("DTRACE_KMOD_DIR", "/a:/b", 1);
	std::vector<std::string> p = dt::kmod::module_search_path();
	unsetenv("DTRACE_KMOD_DIR");
	ASSERT_EQ(p.size(), 5u);
	EXPECT_EQ(p[0], "/a");
	EXPECT_EQ(p[1], "/b");
	EXPECT_TRUE(p[2].ends_with("lib/dtrace/modules/" + rel)) << p[2];
	EXPECT_TRUE(p[3].ends_with("/dtrace/modules/" + rel)) << p[3];
	EXPECT_EQ(p[4], "/lib/modules/" + rel + "/updates/dkms");
}
