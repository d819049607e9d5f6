// SPDX-License-Identifier: MIT
//
// session_test.cc - the session API (dtrace/session.hpp) as a consumer
// other than dtrace(1) uses it: processes, pieces, the front half's match
// counts, the engine's choice, errors that name their piece, and the work
// loop to exit() and to the end of a created process.
#include "harness.hpp"

#include <dtrace/consumer.hpp>
#include <dtrace/provider.hpp>
#include <dtrace/session.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>

namespace {

using namespace dt;

compiler::input piece(const std::string &text)
{
	compiler::input in;
	in.k = compiler::input::kind::name;
	in.text = text;
	return in;
}

session_settings test_settings()
{
	// The plugins of this build, not those beside the test binary.
	setenv("DTRACE_PLUGIN_PATH", DTRACE_TEST_PLUGIN_DIR, 1);
	session_settings ss;
	ss.macro_args = {"dtrace"};
	return ss;
}

// The loop dtrace(1) runs, to the end of tracing; the output.
std::string trace(session &s, bool stop_at_once = false)
{
	test::capture out, err;
	consumer_settings cs;
	cs.out = out.file();
	cs.err = err.file();
	cs.quiet = true;
	consumer c(s.prog(), s.enabled(), cs);
	s.go();
	bool more = s.work(c);
	for (int i = 0; more && i < 500; i++) {
		s.sleep();
		more = s.work(c, stop_at_once);
	}
	EXPECT_FALSE(more) << "tracing did not end";
	c.finish();
	return out.text();
}

TEST(Session, PiecesAreCountedAndRunTogether)
{
	session s(test_settings());
	s.compile(piece("BEGIN { x = 1; }"));
	s.compile(piece("BEGIN { printf(\"x=%d\\n\", x); }"));
	s.compile(piece("dtrace:::BEGIN, dtrace:::END { exit(0); }"));
	EXPECT_EQ(s.pieces(), 3u);
	EXPECT_EQ(s.choose_engine().kind, engine_kind::user);
	EXPECT_FALSE(s.choose_engine().refusal);
	std::vector<size_t> n = s.enable();
	EXPECT_EQ(n, (std::vector<size_t>{1, 1, 2}));
	EXPECT_EQ(s.enabled().size(), 4u);
	// The second piece sees the first's variable: one program.
	EXPECT_EQ(trace(s), "x=1\n\n");
}

// A tick interrupts whatever thread runs (illumos: often pid 0, sched);
// the user engine fires it in dtrace's own process. A clause that reads the
// thread goes to a kernel engine; one that does not stays in process, as
// do BEGIN's reads of dtrace's own pid.
TEST(Session, ATickThatReadsItsThreadNeedsAKernelEngine)
{
	for (const char *reads : {"trace(pid);", "printf(\"%s\", execname);", "self->x = 1;",
				  "ustack();", "@[ustack()] = count();", "trace(tid == 0);"}) {
		session s(test_settings());
		s.compile(piece(std::string("tick-1s { ") + reads + " }"));
		const engine_decision &d = s.choose_engine();
		if (d.reason.find("but no kernel engine") == std::string::npos) {
			EXPECT_NE(d.kind, engine_kind::user) << reads << ": " << d.reason;
		}
		EXPECT_NE(d.reason.find("probe profile:::tick-1s reads the thread it interrupts"),
			  std::string::npos)
			<< reads << ": " << d.reason;
	}
	for (const char *plain : {"@ = count();", "trace(timestamp);", "printf(\"%d\", cpu);"}) {
		session s(test_settings());
		s.compile(piece(std::string("BEGIN { trace(pid); } tick-1s { ") + plain + " }"));
		EXPECT_EQ(s.choose_engine().kind, engine_kind::user) << plain;
	}
}

TEST(Session, StopEndsTracingAndRunsEnd)
{
	session s(test_settings());
	s.compile(piece("tick-1ms { } END { printf(\"end\\n\"); }"));
	(void)s.enable();
	// As ^C: work(stop) ends tracing; END still fires and is drained.
	EXPECT_EQ(trace(s, /*stop_at_once=*/true), "end\n\n");
}

TEST(Session, EnableErrorNamesThePieceAtFault)
{
	session_settings ss = test_settings();
	ss.engine = engine_kind::user;
	session s(std::move(ss));
	s.compile(piece("BEGIN { }"));
	s.compile(piece("tick-1s { }"));
	s.compile(piece("profile-97 { }"));
	try {
		(void)s.enable();
		FAIL() << "the user engine enabled profile-97";
	} catch (const enable_error &e) {
		EXPECT_EQ(e.piece(), 2u);
		EXPECT_EQ(e.code(), errc::enable);
		EXPECT_NE(std::string(e.what()).find("the user engine cannot enable "
						     "profile:::profile-97"),
			  std::string::npos)
			<< e.what();
	}
	// The pieces before it matched what they matched.
	ASSERT_EQ(s.matched().size(), 3u);
	EXPECT_EQ(s.matched()[0], 1u);
	EXPECT_EQ(s.matched()[1], 1u);
}

TEST(Session, NoMatchIsAnErrorUnlessZ)
{
	{
		session_settings ss = test_settings();
		ss.zero_ok = true;
		session s(std::move(ss));
		s.compile(piece("BEGIN { exit(0); }"));
		s.compile(piece("nosuchprovider:::nosuchprobe { }"));
		EXPECT_EQ(s.enable(), (std::vector<size_t>{1, 0}));
	}
	session s(test_settings());
	s.compile(piece("BEGIN { exit(0); }"));
	enabling en = match_program(s.prog(), s.registry());
	EXPECT_TRUE(en.unmatched.empty());
	EXPECT_EQ(en.matched, (std::vector<uint32_t>{1}));
	EXPECT_NO_THROW(require_matched(en, false));
	program p = s.prog();
	p.clauses[0].descs.push_back({"nosuchprovider", "", "", "x"});
	en = match_program(p, s.registry());
	ASSERT_EQ(en.unmatched.size(), 1u);
	try {
		require_matched(en, false);
		FAIL() << "no error";
	} catch (const engine_error &e) {
		EXPECT_EQ(e.code(), errc::no_match);
		EXPECT_EQ(e.clause(), 0u);
		EXPECT_STREQ(e.what(),
			     "probe description nosuchprovider:::x does not match any probes");
	}
}

TEST(Session, OptionsAreCheckedAsDtraceSetoptDoes)
{
	session s(test_settings());
	try {
		s.set_option("bogus", "1");
		FAIL() << "no error";
	} catch (const error &e) {
		EXPECT_EQ(e.code(), errc::usage);
		EXPECT_STREQ(e.what(), "Invalid option name");
	}
	EXPECT_THROW(s.set_option("switchrate", "fast"), error);
	EXPECT_THROW(s.set_option("evaltime", "never"), error);
	s.set_option("quiet", "", false);
	s.set_option("quiet", "no"); // unset again
	s.compile(piece("BEGIN { exit(0); }"));
	EXPECT_FALSE(s.prog().option("quiet").has_value());
}

TEST(Session, ACreatedProcessIsTargetAndItsEndIsNoticed)
{
	if (geteuid() != 0)
		GTEST_SKIP()
			<< "creating a held process needs ptrace of a child, run as root in CI";
	std::vector<std::string> notices;
	session_settings ss = test_settings();
	ss.notice = [&](const std::string &n) { notices.push_back(n); };
	session s(std::move(ss));
	pid_t pid = s.create_process("/bin/true");
	ASSERT_GT(pid, 0);
	EXPECT_EQ(s.target(), pid);
	// $target is the created process.
	s.compile(piece("BEGIN { printf(\"%d\\n\", $target); }"));
	(void)s.enable();
	// Tracing ends when the process does.
	EXPECT_EQ(trace(s), std::to_string(pid) + "\n\n");
	ASSERT_EQ(notices.size(), 1u);
	EXPECT_EQ(notices[0], "pid " + std::to_string(pid) + " has exited");
}

TEST(Session, ProcessErrorsHaveTheirCode)
{
	session s(test_settings());
	try {
		(void)s.create_process("/nonexistent/command");
		FAIL() << "no error";
	} catch (const error &e) {
		EXPECT_EQ(e.code(), errc::process);
		EXPECT_STREQ(e.what(), "failed to execute /nonexistent/command: cannot find "
				       "executable file");
	}
}

} // namespace
