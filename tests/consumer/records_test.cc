// SPDX-License-Identifier: MIT
//
// records_test.cc - firings decoded by EPID and printed as dtrace(1) does:
// the banner and per-probe lines, trace() of each size, strings, byte
// dumps, stacks and symbols, exit(), faults and drops. Expected text is
// DTrace's documented output (Dynamic Tracing Guide; illumos dtrace.c
// chew(): "%3d %6d %32s "; dt_consume.c: " %16lld", " %8d", dt_print_bytes).
#include "harness.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

extern "C" {
// A function with a symbol of its own, for usym()/uaddr()/ustack().
__attribute__((noinline, used)) int dt_consumer_test_marker(int x)
{
	return x * 3 + 1;
}
}

namespace {

using namespace dt;
using namespace dt::test;

struct fixture {
	program prog;
	std::vector<enabled_probe> eps;
	capture out, err;
	std::unique_ptr<consumer> c;

	void start(bool quiet = false)
	{
		consumer_settings s;
		s.out = out.file();
		s.err = err.file();
		s.quiet = quiet;
		c = std::make_unique<consumer>(prog, eps, s);
	}
	void feed(const std::vector<uint8_t> &b, uint32_t cpu = 0) { c->records(b, cpu); }
};

// The Dynamic Tracing Guide's hello.d: BEGIN { trace("hello, world"); }
TEST(Records, HelloWorldDefaultOutput)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {string_type(256)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start();
	const auto &c = f.prog.clauses[0];
	firing fi(c, 1);
	fi.put_str(c.actions[0].args[0], "hello, world");
	f.feed(fi.b);
	EXPECT_EQ(
		f.out.text(),
		"CPU     ID                    FUNCTION:NAME\n"
		"  0      1                           :BEGIN   hello, world                     \n");
}

TEST(Records, QuietPrintsNoBannerNorProbeLine)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {int_type(4)});
	cb.add(DTRACEACT_DIFEXPR, {string_type(16)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	const auto &c = f.prog.clauses[0];
	firing fi(c, 1);
	fi.put(c.actions[0].args[0], int32_t{-42}).put_str(c.actions[1].args[0], "x\n");
	f.feed(concat({&fi, &fi}));
	EXPECT_EQ(f.out.text(), "-42x\n-42x\n");
}

TEST(Records, QuietOptionFromProgram)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {int_type(8)});
	f.prog.clauses.push_back(cb.done());
	f.prog.options["quiet"] = "";
	f.eps.push_back(begin_probe());
	f.start();
	firing fi(f.prog.clauses[0], 1);
	fi.put(f.prog.clauses[0].actions[0].args[0], int64_t{7});
	f.feed(fi.b);
	EXPECT_EQ(f.out.text(), "7");
}

// dt_consume.c: 8 bytes " %16lld", 4 " %8d" (signed), 2 " %5d" and 1
// " %3d" of the unsigned value.
TEST(Records, TraceIntegersBySize)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {int_type(1)});
	cb.add(DTRACEACT_DIFEXPR, {int_type(2)});
	cb.add(DTRACEACT_DIFEXPR, {int_type(4)});
	cb.add(DTRACEACT_DIFEXPR, {int_type(8)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(an_enabled_probe(3, 4567, "syscall", "vmlinux", "read", "entry"));
	f.start();
	const auto &c = f.prog.clauses[0];
	firing fi(c, 3);
	fi.put(c.actions[0].args[0], int8_t{-1})
		.put(c.actions[1].args[0], int16_t{-2})
		.put(c.actions[2].args[0], int32_t{-3})
		.put(c.actions[3].args[0], int64_t{-4});
	f.feed(fi.b, 3);
	EXPECT_EQ(f.out.text(), "CPU     ID                    FUNCTION:NAME\n"
				"  3   4567                       read:entry  255 65534       -3"
				"               -4\n");
}

TEST(Records, SeveralFiringsOneBanner)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {int_type(4)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(an_enabled_probe(1, 100, "profile", "", "", "tick-1sec"));
	f.start();
	firing a(f.prog.clauses[0], 1), b(f.prog.clauses[0], 1);
	a.put(f.prog.clauses[0].actions[0].args[0], int32_t{1});
	b.put(f.prog.clauses[0].actions[0].args[0], int32_t{2});
	f.feed(a.b, 1);
	f.feed(b.b, 1);
	EXPECT_EQ(f.out.text(), "CPU     ID                    FUNCTION:NAME\n"
				"  1    100                       :tick-1sec         1\n"
				"  1    100                       :tick-1sec         2\n");
}

// Strings that fill their record (no NUL) still print as strings;
// trace("") has no printable byte and dumps (illumos dt_print_bytes).
TEST(Records, StringEdgeCases)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {string_type(4)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	firing full(f.prog.clauses[0], 1);
	full.put_str(f.prog.clauses[0].actions[0].args[0], "abcd");
	f.feed(full.b);
	EXPECT_EQ(f.out.text(), "  abcd                             ");
}

// tracemem(): always the hex dump (illumos dt_print_bytes, forceraw).
TEST(Records, TracememHexDump)
{
	fixture f;
	clause_builder cb;
	value_type bytes = kind_type(value_type::kind::bytes, 20);
	cb.add(DTRACEACT_TRACEMEM, {bytes});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	firing fi(f.prog.clauses[0], 1);
	std::vector<uint8_t> v = {'h', 'e', 'l', 'l', 'o', 0, 1,   0x7f, 0x80, 0xff,
				  ' ', '~', 0,	 0,   0,   0, 'A', 'B',	 'C',  'D'};
	fi.put_bytes(f.prog.clauses[0].actions[0].args[0], v);
	f.feed(fi.b);
	EXPECT_EQ(f.out.text(),
		  "\n"
		  "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
		  "         0: 68 65 6c 6c 6f 00 01 7f 80 ff 20 7e 00 00 00 00  hello..... ~....\n"
		  "        10: 41 42 43 44                                      ABCD\n");
}

// A struct traced by value that is not a string dumps the same way, after
// the probe line's space.
TEST(Records, BytesThatAreNotAString)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {kind_type(value_type::kind::bytes, 3)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start();
	firing fi(f.prog.clauses[0], 1);
	fi.put_bytes(f.prog.clauses[0].actions[0].args[0], {0, 1, 2});
	f.feed(fi.b);
	EXPECT_EQ(f.out.text(),
		  "CPU     ID                    FUNCTION:NAME\n"
		  "  0      1                           :BEGIN \n"
		  "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
		  "         0: 00 01 02                                         ...\n"
		  "\n");
}

TEST(Records, ExitRecordSetsStatusAndLaterRecordsStillPrint)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_EXIT, {int_type(4)});
	cb.add(DTRACEACT_DIFEXPR, {int_type(4)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	EXPECT_FALSE(f.c->exit_status().has_value());
	firing fi(f.prog.clauses[0], 1);
	fi.put(f.prog.clauses[0].actions[0].args[0], int32_t{3})
		.put(f.prog.clauses[0].actions[1].args[0], int32_t{9});
	f.feed(fi.b);
	ASSERT_TRUE(f.c->exit_status().has_value());
	EXPECT_EQ(*f.c->exit_status(), 3);
	EXPECT_EQ(f.out.text(), "9");
}

// Two clauses: the EPID picks the layout; EPID 0 words are padding.
TEST(Records, DecodesByEpid)
{
	fixture f;
	clause_builder c1, c2;
	c1.add(DTRACEACT_DIFEXPR, {int_type(8)});
	c2.add(DTRACEACT_DIFEXPR, {string_type(8)});
	f.prog.clauses.push_back(c1.done());
	f.prog.clauses.push_back(c2.done());
	f.eps.push_back(an_enabled_probe(1, 1, "dtrace", "", "", "BEGIN", 0));
	f.eps.push_back(an_enabled_probe(2, 2, "dtrace", "", "", "END", 1));
	f.start(true);
	firing a(f.prog.clauses[0], 1), b(f.prog.clauses[1], 2);
	a.put(f.prog.clauses[0].actions[0].args[0], int64_t{5});
	b.put_str(f.prog.clauses[1].actions[0].args[0], "end");
	std::vector<uint8_t> buf = a.b;
	buf.insert(buf.end(), 4, 0); // DTRACE_EPIDNONE filler
	buf.insert(buf.end(), 4, 0);
	buf.insert(buf.end(), b.b.begin(), b.b.end());
	f.feed(buf);
	EXPECT_EQ(f.out.text(), "5end");
}

// stack(): a line per frame indented 14, up to the first 0; addresses no
// symbol covers print as 0x... (dt_print_stack).
TEST(Records, StackUnresolvedFrames)
{
	fixture f;
	clause_builder cb;
	auto &a = cb.add(DTRACEACT_STACK, {kind_type(value_type::kind::stack, 32)});
	a.nframes = 4;
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	firing fi(f.prog.clauses[0], 1);
	const record &r = f.prog.clauses[0].actions[0].args[0];
	std::vector<uint64_t> pcs = {0x1000, 0x2abc, 0, 0};
	std::vector<uint8_t> raw(32);
	std::memcpy(raw.data(), pcs.data(), 32);
	fi.put_bytes(r, raw);
	f.feed(fi.b);
	EXPECT_EQ(f.out.text(), "\n"
				"              0x1000\n"
				"              0x2abc\n");
}

// usym(), uaddr(), umod() of a function in this process, resolved through
// /proc/self/maps and the executable's symbol table.
TEST(Records, UserSymbols)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_USYM, {kind_type(value_type::kind::usym, 16)});
	cb.add(DTRACEACT_UADDR, {kind_type(value_type::kind::uaddr, 16)});
	cb.add(DTRACEACT_UMOD, {kind_type(value_type::kind::umod, 16)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	firing fi(f.prog.clauses[0], 1);
	uint64_t pc = reinterpret_cast<uint64_t>(&dt_consumer_test_marker) + 2;
	uint64_t pair[2] = {static_cast<uint64_t>(getpid()), pc};
	std::vector<uint8_t> raw(16);
	std::memcpy(raw.data(), pair, 16);
	for (int i = 0; i < 3; i++)
		fi.put_bytes(f.prog.clauses[0].actions[i].args[0], raw);
	f.feed(fi.b);
	char exe[4096] = {};
	ASSERT_GT(readlink("/proc/self/exe", exe, sizeof exe - 1), 0);
	std::string obj = exe;
	obj = obj.substr(obj.rfind('/') + 1);
	auto pad = [](std::string s) { return "  " + s + std::string(50 - s.size(), ' '); };
	EXPECT_EQ(f.out.text(), pad(obj + "`dt_consumer_test_marker") +
					pad(obj + "`dt_consumer_test_marker+0x2") + pad(obj));
}

TEST(Records, UstackFrames)
{
	fixture f;
	clause_builder cb;
	auto &a = cb.add(DTRACEACT_USTACK, {kind_type(value_type::kind::ustack, 32)});
	a.nframes = 3;
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	firing fi(f.prog.clauses[0], 1);
	uint64_t pc = reinterpret_cast<uint64_t>(&dt_consumer_test_marker);
	uint64_t words[4] = {static_cast<uint64_t>(getpid()), pc + 1, pc, 0};
	std::vector<uint8_t> raw(32);
	std::memcpy(raw.data(), words, 32);
	fi.put_bytes(f.prog.clauses[0].actions[0].args[0], raw);
	f.feed(fi.b);
	char exe[4096] = {};
	ASSERT_GT(readlink("/proc/self/exe", exe, sizeof exe - 1), 0);
	std::string obj = exe;
	obj = obj.substr(obj.rfind('/') + 1);
	EXPECT_EQ(f.out.text(), "\n              " + obj + "`dt_consumer_test_marker+0x1\n" +
					"              " + obj + "`dt_consumer_test_marker\n");
}

// -F: entry/return indent by two; other probes are "| func:name".
TEST(Records, FlowIndent)
{
	fixture f;
	clause_builder cb;
	f.prog.clauses.push_back(cb.done());
	f.prog.options["flowindent"] = "";
	f.eps.push_back(flowing(an_enabled_probe(1, 10, "fbt", "vmlinux", "vfs_read", "entry"),
				probe_flow::entry));
	f.eps.push_back(flowing(an_enabled_probe(2, 11, "fbt", "vmlinux", "rw_verify", "entry"),
				probe_flow::entry));
	f.eps.push_back(flowing(an_enabled_probe(3, 12, "fbt", "vmlinux", "rw_verify", "return"),
				probe_flow::ret));
	f.eps.push_back(flowing(an_enabled_probe(4, 13, "fbt", "vmlinux", "vfs_read", "return"),
				probe_flow::ret));
	f.start();
	const auto &c = f.prog.clauses[0];
	firing a(c, 1), b(c, 2), r1(c, 3), r2(c, 4);
	f.feed(concat({&a, &b, &r1, &r2}));
	// chew(): "%3s %-41s\n" then "%3d %-41s " per firing.
	auto line = [](std::string n) {
		return "  0 " + n + std::string(41 - n.size(), ' ') + " \n";
	};
	EXPECT_EQ(f.out.text(), "CPU FUNCTION" + std::string(33, ' ') + "\n" +
					line(" -> vfs_read") + line("   -> rw_verify") +
					line("   <- rw_verify") + line(" <- vfs_read"));
}

// -F: the flow is the provider's word, not the probe's name: a system
// call's boundary is => and <=, and a probe named "entry" whose provider
// says no flow is "| func:name".
TEST(Records, FlowIndentFromTheDescription)
{
	fixture f;
	clause_builder cb;
	f.prog.clauses.push_back(cb.done());
	f.prog.options["flowindent"] = "";
	f.eps.push_back(flowing(an_enabled_probe(1, 10, "syscall", "vmlinux", "read", "entry"),
				probe_flow::entry, true));
	f.eps.push_back(an_enabled_probe(2, 11, "sdt", "vmlinux", "work", "entry"));
	f.eps.push_back(flowing(an_enabled_probe(3, 12, "syscall", "vmlinux", "read", "return"),
				probe_flow::ret, true));
	f.start();
	const auto &c = f.prog.clauses[0];
	firing a(c, 1), b(c, 2), r(c, 3);
	f.feed(concat({&a, &b, &r}));
	auto line = [](std::string n) {
		return "  0 " + n + std::string(41 - n.size(), ' ') + " \n";
	};
	EXPECT_EQ(f.out.text(), "CPU FUNCTION" + std::string(33, ' ') + "\n" + line(" => read") +
					line("  | work:entry") + line(" <= read"));
}

// print(): "type value\n" for scalars (illumos dt_print.c: hex, characters
// quoted).
TEST(Records, PrintScalars)
{
	fixture f;
	clause_builder cb;
	value_type i = int_type(4);
	i.name = "int";
	value_type c = int_type(1);
	c.name = "char";
	value_type p = int_type(8, false);
	p.k = value_type::kind::pointer;
	p.name = "char *";
	cb.add(DTRACEACT_PRINTM, {i});
	cb.add(DTRACEACT_PRINTM, {c});
	cb.add(DTRACEACT_PRINTM, {i});
	cb.add(DTRACEACT_PRINTM, {p});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	const auto &cl = f.prog.clauses[0];
	firing fi(cl, 1);
	fi.put(cl.actions[0].args[0], int32_t{10})
		.put(cl.actions[1].args[0], 'x')
		.put(cl.actions[2].args[0], int32_t{0})
		.put(cl.actions[3].args[0], uint64_t{0xffff1234});
	f.feed(fi.b);
	EXPECT_EQ(f.out.text(), "int 0xa\nchar 'x'\nint 0\nchar * 0xffff1234\n");
}

// @[usym(pc)] = count(): addresses within one function are one key
// (illumos dt_aggregate_usym()).
TEST(Records, UsymAggregationKeysFoldToTheirFunction)
{
	fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_COUNT, {kind_type(value_type::kind::usym, 16)}));
	f.start(true);
	uint64_t pc = reinterpret_cast<uint64_t>(&dt_consumer_test_marker);
	for (uint64_t off : {1, 2}) {
		agg_data d;
		d.aggid = 1;
		d.key = key_builder().add(static_cast<uint64_t>(getpid())).add(pc + off).k;
		d.value = {1};
		f.c->aggregation(d);
	}
	f.c->finish();
	char exe[4096] = {};
	ASSERT_GT(readlink("/proc/self/exe", exe, sizeof exe - 1), 0);
	std::string obj = exe;
	obj = obj.substr(obj.rfind('/') + 1) + "`dt_consumer_test_marker";
	EXPECT_EQ(f.out.text(),
		  "\n  " + obj + std::string(50 - obj.size(), ' ') + "                2\n");
}

// Kernel addresses through /proc/kallsyms (only readable with privilege:
// without it every address is 0 and frames print as 0x...).
TEST(Records, KernelSymbols)
{
	std::ifstream in("/proc/kallsyms");
	std::string line, name;
	uint64_t addr = 0, prev = 0, next = 0;
	std::string prev_name, prev_mod;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string a, t, n, m;
		ls >> a >> t >> n >> m;
		uint64_t v = std::strtoull(a.c_str(), nullptr, 16);
		if (prev && prev_mod.empty() && v > prev + 0x20 && !name.size()) {
			addr = prev;
			name = prev_name;
			next = v;
		}
		if (v <= prev)
			prev = 0; // shared or unordered addresses: not a clean candidate
		else
			prev = (t == "T" || t == "t") ? v : 0;
		prev_name = n;
		prev_mod = m;
		if (!name.empty())
			break;
	}
	if (name.empty())
		GTEST_SKIP() << "/proc/kallsyms shows no addresses (needs privilege)";
	ASSERT_GT(next, addr);
	fixture f;
	clause_builder cb;
	auto &a = cb.add(DTRACEACT_STACK, {kind_type(value_type::kind::stack, 16)});
	a.nframes = 2;
	cb.add(DTRACEACT_SYM, {kind_type(value_type::kind::sym, 8)});
	cb.add(DTRACEACT_MOD, {kind_type(value_type::kind::mod, 8)});
	value_type ptr = int_type(8, false);
	ptr.k = value_type::kind::pointer;
	cb.add(DTRACEACT_PRINTF, {ptr, ptr}, "[%a][%a]");
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start(true);
	const auto &c = f.prog.clauses[0];
	firing fi(c, 1);
	uint64_t pcs[2] = {addr + 4, addr};
	std::vector<uint8_t> raw(16);
	std::memcpy(raw.data(), pcs, 16);
	fi.put_bytes(c.actions[0].args[0], raw)
		.put(c.actions[1].args[0], addr + 2)
		.put(c.actions[2].args[0], addr + 2)
		.put(c.actions[3].args[0], addr + 0x10)
		.put(c.actions[3].args[1], addr);
	f.feed(fi.b);
	std::string sym = "vmlinux`" + name;
	auto pad = [](std::string x) { return "  " + x + std::string(50 - x.size(), ' '); };
	EXPECT_EQ(f.out.text(), "\n              " + sym + "+0x4\n              " + sym + "\n" +
					pad(sym) + pad("vmlinux") + "[" + sym + "+0x10][" + sym +
					"]");
}

// setopt("quiet") at run time: trace() formats quietly from then on, but
// the probe line and its newline follow the quiet of the start, as
// dtrace(1) reads it once (illumos dtrace.c g_quiet vs dt_consume_cpu()).
TEST(Records, SetoptQuietChangesTraceFormattingOnly)
{
	fixture f;
	clause_builder cb;
	cb.add(DTRACEACT_DIFEXPR, {int_type(4)});
	cb.add(DTRACEACT_LIBACT, {string_type(8)}).libact = DT_ACT_SETOPT;
	cb.add(DTRACEACT_DIFEXPR, {int_type(4)});
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe());
	f.start();
	const auto &c = f.prog.clauses[0];
	firing fi(c, 1);
	fi.put(c.actions[0].args[0], int32_t{1})
		.put_str(c.actions[1].args[0], "quiet")
		.put(c.actions[2].args[0], int32_t{2});
	f.feed(fi.b);
	EXPECT_EQ(f.out.text(), "CPU     ID                    FUNCTION:NAME\n"
				"  0      1                           :BEGIN         12\n");
}

// dt_handle_err(): the faulting ECB, its probe, the fault and where.
TEST(Faults, IllumosWording)
{
	fixture f;
	clause_builder cb;
	f.prog.clauses.push_back(cb.done());
	f.eps.push_back(begin_probe(2));
	f.eps.push_back(an_enabled_probe(3, 4567, "syscall", "vmlinux", "read", "entry"));
	f.start();
	fault_report r;
	r.epid = 2;
	r.action = 1;
	r.offset = 12;
	r.code = DTRACEFLT_BADADDR;
	r.illval = 0;
	f.c->fault(r);
	r.epid = 3;
	r.action = 0;
	r.offset = 4;
	r.code = DTRACEFLT_DIVZERO;
	f.c->fault(r);
	r.action = 2;
	r.offset = -1;
	r.code = DTRACEFLT_BADALIGN;
	r.illval = 0xffff0001;
	f.c->fault(r);
	r.code = DTRACEFLT_NOSCRATCH;
	f.c->fault(r);
	EXPECT_EQ(f.err.text(),
		  "dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address "
		  "(0x0) in action #1 at DIF offset 12\n"
		  "dtrace: error on enabled probe ID 3 (ID 4567: syscall:vmlinux:read:entry): "
		  "divide-by-zero in predicate at DIF offset 4\n"
		  "dtrace: error on enabled probe ID 3 (ID 4567: syscall:vmlinux:read:entry): "
		  "invalid alignment (0xffff0001) in action #2\n"
		  "dtrace: error on enabled probe ID 3 (ID 4567: syscall:vmlinux:read:entry): "
		  "out of scratch space in action #2\n");
	EXPECT_EQ(f.out.text(), "");
}

// dt_handle_cpudrop() and dt_handle_status().
TEST(Faults, Drops)
{
	fixture f;
	f.start();
	f.c->drops("principal", 1, 0);
	f.c->drops("principal", 12, 3);
	f.c->drops("aggregation", 2, 1);
	f.c->drops("dynamic", 5, 0);
	f.c->drops("speculative", 1, 0);
	f.c->drops("principal", 0, 0);
	f.c->drops("dynamic_dirty", 1, 0);
	f.c->drops("speculative_unavail", 3, 0);
	f.c->drops("speculative_busy", 1, 0);
	EXPECT_EQ(f.err.text(), "dtrace: 1 drop on CPU 0\n"
				"dtrace: 12 drops on CPU 3\n"
				"dtrace: 2 aggregation drops on CPU 1\n"
				"dtrace: 5 dynamic variable drops\n"
				"dtrace: 1 speculative drop\n"
				"dtrace: 1 dynamic variable drop with non-empty dirty list\n"
				"dtrace: 3 failed speculations (no speculative buffer available)\n"
				"dtrace: 1 failed speculation (available buffer(s) still busy)\n");
}

} // namespace
