// SPDX-License-Identifier: MIT
// The user engine on hand-built programs: what drain() delivers, byte for
// byte -- records at their offsets, aggregation deltas, faults and the
// ERROR probe, exit(), speculations, drops, tick-N.
#include "dif_builder.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/provider.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>

using namespace dt;
using namespace dt::test;

namespace {

struct capture : engine_sink {
	std::vector<uint8_t> bytes;
	std::vector<uint32_t> cpus;
	std::vector<agg_data> aggs;
	std::vector<fault_report> faults;
	std::vector<std::pair<std::string, uint64_t>> dropped;
	// Interleaving: 'a' per aggregation, 'r' per records() call, 'f' per fault.
	std::string order;

	void records(std::span<const uint8_t> buf, uint32_t cpu) override
	{
		bytes.insert(bytes.end(), buf.begin(), buf.end());
		cpus.push_back(cpu);
		order += 'r';
	}
	void aggregation(const agg_data &d) override
	{
		aggs.push_back(d);
		order += 'a';
	}
	void fault(const fault_report &f) override
	{
		faults.push_back(f);
		order += 'f';
	}
	void drops(std::string_view kind, uint64_t n, uint32_t) override
	{
		dropped.emplace_back(std::string(kind), n);
	}
};

struct fixture : ::testing::Test {
	provider_registry reg{{DTRACE_TEST_PLUGIN_DIR}, {}, [](const std::string &) {}};
	engine_settings settings() { return {&reg, false, false, {}}; }
};

uint32_t u32_at(const std::vector<uint8_t> &b, size_t off)
{
	uint32_t v;
	std::memcpy(&v, b.data() + off, 4);
	return v;
}

uint64_t u64_at(const std::vector<uint8_t> &b, size_t off)
{
	uint64_t v;
	std::memcpy(&v, b.data() + off, 8);
	return v;
}

using user_engine = fixture;

TEST_F(user_engine, BeginRecordsEachValueAtItsOffsetAndNothingElse)
{
	program p;
	clause c = clause_on("dtrace", "BEGIN", 40);
	c.actions.push_back(trace_action(int_record(int_const(42), 12, 4)));
	c.actions.push_back(trace_action(str_record(str_const("hello"), 16, 16)));
	c.actions.push_back(trace_action(int_record(int_const(0x1122334455667788), 32, 8)));
	p.clauses.push_back(c);

	auto e = make_user_engine(settings());
	auto eps = e->enable(p);
	ASSERT_EQ(eps.size(), 1u);
	EXPECT_EQ(eps[0].epid, 1u);
	EXPECT_EQ(eps[0].probe.str(), "dtrace:::BEGIN");
	EXPECT_EQ(eps[0].clause, 0u);
	e->go();
	capture cap;
	e->drain(cap);

	ASSERT_EQ(cap.bytes.size(), 40u);
	EXPECT_EQ(u32_at(cap.bytes, 0), 1u); // epid
	uint64_t ts = (uint64_t{u32_at(cap.bytes, 4)} << 32) | u32_at(cap.bytes, 8);
	EXPECT_GT(ts, 0u);
	EXPECT_EQ(u32_at(cap.bytes, 12), 42u);
	const char want[16] = "hello";
	EXPECT_EQ(std::memcmp(cap.bytes.data() + 16, want, 16), 0);
	EXPECT_EQ(u64_at(cap.bytes, 32), 0x1122334455667788u);
	EXPECT_TRUE(cap.faults.empty());
	EXPECT_TRUE(cap.dropped.empty());

	// A second drain has nothing new.
	capture again;
	e->drain(again);
	EXPECT_TRUE(again.bytes.empty());
}

TEST_F(user_engine, BuiltinsDescribeTheDtraceProcessAndTheProbe)
{
	program p;
	clause c = clause_on("dtrace", "BEGIN", 48);
	c.actions.push_back(trace_action(int_record(load_var(DIF_VAR_PID), 16, 8)));
	c.actions.push_back(trace_action(str_record(load_var(DIF_VAR_PROBENAME, true), 24, 8)));
	c.actions.push_back(trace_action(str_record(load_var(DIF_VAR_EXECNAME, true), 32, 8)));
	c.actions.push_back(trace_action(int_record(load_var(DIF_VAR_EPID), 40, 4)));
	c.actions.push_back(trace_action(int_record(load_var(DIF_VAR_ID), 44, 4)));
	p.clauses.push_back(c);
	auto e = make_user_engine(settings());
	auto eps = e->enable(p);
	e->go();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.bytes.size(), 48u);
	EXPECT_EQ(u64_at(cap.bytes, 16), static_cast<uint64_t>(getpid()));
	EXPECT_STREQ(reinterpret_cast<const char *>(cap.bytes.data() + 24), "BEGIN");
	EXPECT_STREQ(reinterpret_cast<const char *>(cap.bytes.data() + 32), "dtrace");
	EXPECT_EQ(u32_at(cap.bytes, 40), 1u);
	EXPECT_EQ(u32_at(cap.bytes, 44), eps[0].probe_id);
}

TEST_F(user_engine, AggregationsDeliverKeyedDeltasPerFunction)
{
	program p;
	auto add_agg = [&](uint16_t func, std::vector<int64_t> params, uint32_t nwords) {
		aggregation a;
		a.id = static_cast<uint32_t>(p.aggregations.size() + 1);
		a.func = func;
		a.params = std::move(params);
		a.nwords = nwords;
		value_type key;
		key.k = value_type::kind::string;
		key.size = 8;
		key.is_signed = false;
		key.name = "string";
		a.keys.push_back(key);
		a.key_offsets = {0};
		a.key_size = 8;
		p.aggregations.push_back(a);
		return a.id;
	};
	uint32_t count = add_agg(DTRACEAGG_COUNT, {}, 1);
	uint32_t sum = add_agg(DTRACEAGG_SUM, {}, 1);
	uint32_t avg = add_agg(DTRACEAGG_AVG, {}, 2);
	uint32_t lq = add_agg(DTRACEAGG_LQUANTIZE, {0, 100, 10}, 12);
	uint32_t q = add_agg(DTRACEAGG_QUANTIZE, {}, DTRACE_QUANTIZE_NBUCKETS);

	clause c = clause_on("dtrace", "BEGIN", 16);
	auto agg_action = [&](uint32_t id, uint16_t func, std::vector<record> args) {
		action a;
		a.kind = func;
		a.aggid = id;
		a.keys.push_back(str_record(str_const("k"), 0, 8));
		a.args = std::move(args);
		c.actions.push_back(a);
	};
	for (int i = 0; i < 3; i++)
		agg_action(count, DTRACEAGG_COUNT, {});
	agg_action(sum, DTRACEAGG_SUM, {int_record(int_const(5), 0)});
	agg_action(sum, DTRACEAGG_SUM, {int_record(int_const(static_cast<uint64_t>(-2)), 0)});
	agg_action(avg, DTRACEAGG_AVG, {int_record(int_const(10), 0)});
	agg_action(avg, DTRACEAGG_AVG, {int_record(int_const(20), 0)});
	agg_action(lq, DTRACEAGG_LQUANTIZE, {int_record(int_const(35), 0)});
	agg_action(lq, DTRACEAGG_LQUANTIZE, {int_record(int_const(1000), 0)});
	// quantize(8, 3): weight 3 in bucket [8, 16)
	agg_action(q, DTRACEAGG_QUANTIZE,
		   {int_record(int_const(8), 0), int_record(int_const(3), 0)});
	p.clauses.push_back(c);

	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.aggs.size(), 5u);
	// Aggregations only: the firing itself writes no record (illumos
	// dtrace_ecb_resize(): every action stores no data).
	EXPECT_EQ(cap.order, "aaaaa");
	std::vector<uint8_t> key(8, 0);
	key[0] = 'k';
	std::map<uint32_t, std::vector<int64_t>> by_id;
	for (const agg_data &d : cap.aggs) {
		EXPECT_EQ(d.key, key) << "aggregation " << d.aggid;
		by_id[d.aggid] = d.value;
	}
	EXPECT_EQ(by_id[count], (std::vector<int64_t>{3}));
	EXPECT_EQ(by_id[sum], (std::vector<int64_t>{3}));
	EXPECT_EQ(by_id[avg], (std::vector<int64_t>{2, 30}));
	std::vector<int64_t> lqv(12, 0);
	lqv[4] = 1;  // 35 in [30, 40)
	lqv[11] = 1; // 1000 >= 100
	EXPECT_EQ(by_id[lq], lqv);
	std::vector<int64_t> qv(DTRACE_QUANTIZE_NBUCKETS, 0);
	qv[DTRACE_QUANTIZE_ZEROBUCKET + 4] = 3;
	EXPECT_EQ(by_id[q], qv);

	// Deltas: nothing new since the last drain.
	capture again;
	e->drain(again);
	EXPECT_TRUE(again.aggs.empty());
	EXPECT_TRUE(cap.bytes.empty());
}

TEST_F(user_engine, GlobalVariablesPersistAcrossClauses)
{
	program p;
	const uint32_t x = DIF_VAR_OTHER_UBASE;
	clause set = clause_on("dtrace", "BEGIN", 16);
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.records = false;
	a.args.push_back(int_record(store_global(x, 77), 0, 0));
	a.args[0].size = 0;
	set.actions.push_back(a);
	p.clauses.push_back(set);
	clause get = clause_on("dtrace", "END", 24);
	get.actions.push_back(trace_action(int_record(load_var(x), 16, 8)));
	p.clauses.push_back(get);
	variable v;
	v.name = "x";
	v.id = x;
	v.type = int_type();
	p.variables.push_back(v);

	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	e->stop();
	capture cap;
	e->drain(cap);
	// The assignment-only BEGIN clause writes no record.
	ASSERT_EQ(cap.bytes.size(), 24u);
	EXPECT_EQ(u32_at(cap.bytes, 0), 2u);
	EXPECT_EQ(u64_at(cap.bytes, 16), 77u);
}

TEST_F(user_engine, FaultDiscardsTheFiringAndFiresErrorWithIllumosArguments)
{
	program p;
	clause bad = clause_on("dtrace", "BEGIN", 24);
	bad.actions.push_back(trace_action(int_record(int_const(1), 16)));
	bad.actions.push_back(trace_action(int_record(div_by_zero(), 16)));
	p.clauses.push_back(bad);
	clause err = clause_on("dtrace", "ERROR", 56);
	for (uint32_t i = 1; i <= 5; i++)
		err.actions.push_back(
			trace_action(int_record(load_var(DIF_VAR_ARG0 + i), 8 + 8 * i)));
	p.clauses.push_back(err);

	auto e = make_user_engine(settings());
	auto eps = e->enable(p);
	ASSERT_EQ(eps.size(), 2u);
	e->go();
	capture cap;
	e->drain(cap);

	ASSERT_EQ(cap.faults.size(), 1u);
	const fault_report &f = cap.faults[0];
	EXPECT_EQ(f.epid, 1u);
	EXPECT_EQ(f.action, 2u);
	EXPECT_EQ(f.offset, 4);
	EXPECT_EQ(f.code, DTRACEFLT_DIVZERO);
	EXPECT_EQ(cap.order, "rf"); // ERROR's firing, then the fault
	// Only the ERROR firing: BEGIN's was discarded.
	ASSERT_EQ(cap.bytes.size(), 56u);
	EXPECT_EQ(u32_at(cap.bytes, 0), 2u);
	EXPECT_EQ(u64_at(cap.bytes, 16), 1u);			       // arg1: epid
	EXPECT_EQ(u64_at(cap.bytes, 24), 2u);			       // arg2: action
	EXPECT_EQ(u64_at(cap.bytes, 32), 4u);			       // arg3: DIF offset
	EXPECT_EQ(u64_at(cap.bytes, 40), uint64_t{DTRACEFLT_DIVZERO}); // arg4
	EXPECT_EQ(u64_at(cap.bytes, 48), 0u);			       // arg5: illval
}

TEST_F(user_engine, FaultInErrorIsCountedNotRecursedInto)
{
	program p;
	clause bad = clause_on("dtrace", "BEGIN", 16);
	bad.actions.push_back(trace_action(int_record(load_kernel(0), 8)));
	bad.actions[0].args[0].offset = 0;
	bad.actions[0].args[0].size = 0;
	p.clauses.push_back(bad);
	clause err = clause_on("dtrace", "ERROR", 24);
	err.actions.push_back(trace_action(int_record(load_kernel(16), 16)));
	p.clauses.push_back(err);

	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	capture cap;
	e->drain(cap);
	// BEGIN's fault is reported; the one in ERROR's clause only counted.
	ASSERT_EQ(cap.faults.size(), 1u);
	EXPECT_EQ(cap.faults[0].epid, 1u);
	EXPECT_EQ(cap.faults[0].code, DTRACEFLT_BADADDR);
	EXPECT_EQ(cap.faults[0].illval, 0u);
	ASSERT_EQ(cap.dropped.size(), 1u);
	EXPECT_EQ(cap.dropped[0].first, "dblerror");
	EXPECT_EQ(cap.dropped[0].second, 1u);
	EXPECT_TRUE(cap.bytes.empty());
}

TEST_F(user_engine, ExitStopsEverythingButEnd)
{
	program p;
	clause begin = clause_on("dtrace", "BEGIN", 24);
	action ex;
	ex.kind = DTRACEACT_EXIT;
	ex.args.push_back(int_record(int_const(3), 16, 4));
	begin.actions.push_back(ex);
	p.clauses.push_back(begin);
	p.clauses.push_back(clause_on("profile", "tick-1ms", 16));
	p.clauses.push_back(clause_on("dtrace", "END", 16));

	auto e = make_user_engine(settings());
	(void)e->enable(p);
	EXPECT_FALSE(e->exiting());
	e->go();
	EXPECT_TRUE(e->exiting());
	for (int i = 0; i < 3; i++)
		e->wait(std::chrono::milliseconds(5));
	e->stop();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.bytes.size(), 24u + 16u);
	EXPECT_EQ(u32_at(cap.bytes, 0), 1u);
	EXPECT_EQ(u32_at(cap.bytes, 16), 3u);
	EXPECT_EQ(u32_at(cap.bytes, 24), 3u); // END's epid: no tick firing
}

TEST_F(user_engine, TickFiresRepeatedlyFromWait)
{
	program p;
	aggregation a;
	a.id = 1;
	a.func = DTRACEAGG_COUNT;
	p.aggregations.push_back(a);
	clause tick = clause_on("profile", "tick-2ms", 16);
	action cnt;
	cnt.kind = DTRACEAGG_COUNT;
	cnt.aggid = 1;
	tick.actions.push_back(cnt);
	p.clauses.push_back(tick);

	auto e = make_user_engine(settings());
	auto eps = e->enable(p);
	ASSERT_EQ(eps.size(), 1u);
	EXPECT_EQ(eps[0].probe.str(), "profile:::tick-2ms");
	e->go();
	// wait(t) fires the ticks that come due for the whole of t (the
	// consumer drains at switchrate): 50 ms of a 2 ms tick is about 25.
	e->wait(std::chrono::milliseconds(50));
	capture cap;
	e->drain(cap);
	// One delta per aggrate snapshot (dtrace_aggregate_snap()): together
	// they count the firings.
	ASSERT_GE(cap.aggs.size(), 1u);
	int64_t n = 0;
	for (const agg_data &d : cap.aggs)
		n += d.value[0];
	EXPECT_GE(n, 10);
	EXPECT_LE(n, 30);
	// count() alone writes no record per firing.
	EXPECT_TRUE(cap.bytes.empty());
}

TEST_F(user_engine, CommittedSpeculationFollowsTheCommittingFiring)
{
	program p;
	const uint32_t s = DIF_VAR_OTHER_UBASE;
	variable v;
	v.name = "s";
	v.id = s;
	v.type = int_type();
	p.variables.push_back(v);

	clause c1 = clause_on("dtrace", "BEGIN", 16); // s = speculation()
	action set;
	set.kind = DTRACEACT_DIFEXPR;
	set.records = false;
	set.args.push_back(int_record(store_speculation(s), 0));
	set.args[0].size = 0;
	c1.actions.push_back(set);
	p.clauses.push_back(c1);

	clause c2 = clause_on("dtrace", "BEGIN", 24); // speculate(s); trace(7)
	action spec;
	spec.kind = DTRACEACT_SPECULATE;
	spec.args.push_back(int_record(load_var(s), 0));
	spec.args[0].size = 0;
	c2.actions.push_back(spec);
	c2.actions.push_back(trace_action(int_record(int_const(7), 16)));
	p.clauses.push_back(c2);

	clause c3 = clause_on("dtrace", "END", 24); // commit(s)
	action commit;
	commit.kind = DTRACEACT_COMMIT;
	commit.args.push_back(int_record(load_var(s), 16));
	c3.actions.push_back(commit);
	p.clauses.push_back(c3);

	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	capture before;
	e->drain(before);
	// Nothing yet: clause 1 only assigns (no record), clause 2's firing
	// sits in the speculation.
	ASSERT_EQ(before.bytes.size(), 0u);
	e->stop();
	capture cap;
	e->drain(cap);
	// commit() records nothing of its own (illumos gives it no size): the
	// committed firing alone reaches the principal buffer.
	ASSERT_EQ(cap.bytes.size(), 24u);
	EXPECT_EQ(u32_at(cap.bytes, 0), 2u); // the speculative firing
	EXPECT_EQ(u64_at(cap.bytes, 16), 7u);
}

TEST_F(user_engine, FullPrincipalBufferCountsDrops)
{
	program p;
	p.options["bufsize"] = "40";
	clause c = clause_on("dtrace", "BEGIN", 16);
	p.clauses.push_back(c);
	p.clauses.push_back(c);
	p.clauses.push_back(c);
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	capture cap;
	e->drain(cap);
	EXPECT_EQ(cap.bytes.size(), 32u);
	ASSERT_EQ(cap.dropped.size(), 1u);
	EXPECT_EQ(cap.dropped[0].first, "principal");
	EXPECT_EQ(cap.dropped[0].second, 1u);
}

TEST_F(user_engine, RingBufferKeepsTheNewestFiringsUntilStop)
{
	program p;
	p.options["bufsize"] = "32";
	p.options["bufpolicy"] = "ring";
	clause c = clause_on("dtrace", "BEGIN", 16);
	p.clauses.push_back(c);
	p.clauses.push_back(c);
	p.clauses.push_back(c);
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	capture early;
	e->drain(early);
	EXPECT_TRUE(early.bytes.empty());
	e->stop();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.bytes.size(), 32u);
	EXPECT_EQ(u32_at(cap.bytes, 0), 2u);
	EXPECT_EQ(u32_at(cap.bytes, 16), 3u);
}

TEST_F(user_engine, RefusesProbesThatNeedAKernel)
{
	program p;
	p.clauses.push_back(clause_on("profile", "profile-97", 16));
	auto e = make_user_engine(settings());
	try {
		(void)e->enable(p);
		FAIL() << "profile-97 was enabled";
	} catch (const engine_error &ex) {
		EXPECT_STREQ(ex.what(),
			     "the user engine cannot enable profile:::profile-97: it runs "
			     "only dtrace:::BEGIN, dtrace:::END, dtrace:::ERROR and "
			     "profile:::tick-N");
	}
}

TEST_F(user_engine, DescriptionMatchingNothingIsAnErrorUnlessZeroOk)
{
	program p;
	p.clauses.push_back(clause_on("dtrace", "NOSUCH", 16));
	auto e = make_user_engine(settings());
	try {
		(void)e->enable(p);
		FAIL() << "dtrace:::NOSUCH was enabled";
	} catch (const engine_error &ex) {
		EXPECT_STREQ(ex.what(),
			     "probe description dtrace:::NOSUCH does not match any probes");
	}
	auto s = settings();
	s.zero_ok = true;
	auto z = make_user_engine(s);
	EXPECT_TRUE(z->enable(p).empty());
}

TEST_F(user_engine, ClauseLocalsLastOneFiringAcrossItsClauses)
{
	// this->v += 1 in each of two clauses on tick: 1, 2 per firing, never 3.
	program p;
	const uint32_t v = DIF_VAR_OTHER_UBASE;
	for (int i = 0; i < 2; i++) {
		clause c = clause_on("profile", "tick-1ms", 24);
		c.actions.push_back(trace_action(int_record(bump_var(v, 1, DIFV_SCOPE_LOCAL), 16)));
		p.clauses.push_back(c);
	}
	clause stop = clause_on("profile", "tick-1ms", 16);
	p.clauses.push_back(stop);
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	e->wait(std::chrono::milliseconds(50));
	e->wait(std::chrono::milliseconds(50));
	capture cap;
	e->drain(cap);
	// Firings of 24 + 24 + 16 bytes; at least two ticks.
	ASSERT_GE(cap.bytes.size(), 2u * 64u);
	for (size_t off = 0; off + 64 <= cap.bytes.size(); off += 64) {
		EXPECT_EQ(u64_at(cap.bytes, off + 16), 1u) << "firing at " << off;
		EXPECT_EQ(u64_at(cap.bytes, off + 24 + 16), 2u) << "firing at " << off;
	}
}

TEST_F(user_engine, ThreadLocalsPersistAcrossFirings)
{
	program p;
	const uint32_t v = DIF_VAR_OTHER_UBASE;
	variable var;
	var.name = "v";
	var.id = v;
	var.scope = DIFV_SCOPE_THREAD;
	var.type = int_type();
	p.variables.push_back(var);
	clause begin = clause_on("dtrace", "BEGIN", 24);
	begin.actions.push_back(trace_action(int_record(bump_var(v, 5, DIFV_SCOPE_THREAD), 16)));
	p.clauses.push_back(begin);
	clause end = clause_on("dtrace", "END", 24);
	end.actions.push_back(trace_action(int_record(bump_var(v, 1, DIFV_SCOPE_THREAD), 16)));
	p.clauses.push_back(end);
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	e->stop();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.bytes.size(), 48u);
	EXPECT_EQ(u64_at(cap.bytes, 16), 5u);
	EXPECT_EQ(u64_at(cap.bytes, 24 + 16), 6u);
}

TEST_F(user_engine, NoRoomDropsTheFiringBeforeItsPredicateOrExitRuns)
{
	program p;
	p.options["bufsize"] = "16";
	p.clauses.push_back(clause_on("dtrace", "BEGIN", 16));
	clause ex = clause_on("dtrace", "BEGIN", 24);
	ex.predicate = div_by_zero(); // would fault if it ran
	action a;
	a.kind = DTRACEACT_EXIT;
	a.args.push_back(int_record(int_const(0), 16, 4));
	ex.actions.push_back(a);
	p.clauses.push_back(ex);
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	EXPECT_FALSE(e->exiting());
	capture cap;
	e->drain(cap);
	EXPECT_EQ(cap.bytes.size(), 16u);
	EXPECT_TRUE(cap.faults.empty());
	ASSERT_EQ(cap.dropped.size(), 1u);
	EXPECT_EQ(cap.dropped[0], (std::pair<std::string, uint64_t>{"principal", 1}));
}

TEST_F(user_engine, FillPolicyStopsWhenFullButKeepsRoomForEnd)
{
	program p;
	p.options["bufsize"] = "48";
	p.options["bufpolicy"] = "fill";
	for (int i = 0; i < 3; i++)
		p.clauses.push_back(clause_on("dtrace", "BEGIN", 16));
	p.clauses.push_back(clause_on("dtrace", "END", 16));
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	// 48 bytes less END's 16: two BEGIN firings fit, the third fills it.
	EXPECT_TRUE(e->exiting());
	capture early;
	e->drain(early);
	EXPECT_TRUE(early.bytes.empty()); // fill buffers are read after stop
	e->stop();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.bytes.size(), 48u);
	EXPECT_EQ(u32_at(cap.bytes, 0), 1u);
	EXPECT_EQ(u32_at(cap.bytes, 16), 2u);
	EXPECT_EQ(u32_at(cap.bytes, 32), 4u); // END
	ASSERT_EQ(cap.dropped.size(), 1u);
	EXPECT_EQ(cap.dropped[0].second, 1u);
}

TEST_F(user_engine, SpeculationOverSpecsizeCountsSpeculativeDrops)
{
	program p;
	p.options["specsize"] = "24";
	const uint32_t s = DIF_VAR_OTHER_UBASE;
	variable v;
	v.name = "s";
	v.id = s;
	v.type = int_type();
	p.variables.push_back(v);
	clause c1 = clause_on("dtrace", "BEGIN", 16);
	action set;
	set.kind = DTRACEACT_DIFEXPR;
	set.records = false;
	set.args.push_back(int_record(store_speculation(s), 0));
	set.args[0].size = 0;
	c1.actions.push_back(set);
	p.clauses.push_back(c1);
	for (int i = 0; i < 2; i++) { // two 24-byte speculative firings
		clause c = clause_on("dtrace", "BEGIN", 24);
		action spec;
		spec.kind = DTRACEACT_SPECULATE;
		spec.args.push_back(int_record(load_var(s), 0));
		spec.args[0].size = 0;
		c.actions.push_back(spec);
		c.actions.push_back(trace_action(int_record(int_const(7), 16)));
		p.clauses.push_back(c);
	}
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.dropped.size(), 1u);
	EXPECT_EQ(cap.dropped[0], (std::pair<std::string, uint64_t>{"speculative", 1}));
}

TEST_F(user_engine, CopyinstrReadsOurOwnMemoryAndFaultsOnBadAddresses)
{
	// The consumer process is the "current process": copyinstr() reads it.
	static const char text[] = "from user space";
	program p;
	clause ok = clause_on("dtrace", "BEGIN", 48);
	ok.actions.push_back(
		trace_action(str_record(copyinstr_of(reinterpret_cast<uint64_t>(text)), 16, 32)));
	p.clauses.push_back(ok);
	clause bad = clause_on("dtrace", "BEGIN", 48);
	bad.actions.push_back(trace_action(str_record(copyinstr_of(8), 16, 32)));
	p.clauses.push_back(bad);
	auto e = make_user_engine(settings());
	(void)e->enable(p);
	e->go();
	capture cap;
	e->drain(cap);
	ASSERT_EQ(cap.bytes.size(), 48u);
	EXPECT_STREQ(reinterpret_cast<const char *>(cap.bytes.data() + 16), text);
	ASSERT_EQ(cap.faults.size(), 1u);
	EXPECT_EQ(cap.faults[0].epid, 2u);
	EXPECT_EQ(cap.faults[0].code, DTRACEFLT_BADADDR);
	EXPECT_EQ(cap.faults[0].illval, 8u);
}

} // namespace
