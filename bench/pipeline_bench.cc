// SPDX-License-Identifier: MIT
// What the userspace half of a dtrace run costs, per stage:
//   compile      D source -> program (lex, parse, sema, codegen), per script
//   records      the consumer decoding and formatting printf() firings
//   printa       the consumer printing a keyed count() aggregation at exit
//   user engine  one BEGIN-like firing through predicate, actions and the VM
// Output goes to /dev/null. Run: build/bench/pipeline_bench
#include <dtrace/compiler.hpp>
#include <dtrace/consumer.hpp>
#include <dtrace/engine.hpp>
#include <dtrace/provider.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

// A script shaped like the Guide's examples: several clauses, predicates,
// thread-locals, strings, aggregations and printf.
const char *k_script = R"(
#pragma D option quiet
BEGIN
{
	start = timestamp;
	self->depth = 0;
}

tick-1sec
/self->depth < 10 && execname != "x"/
{
	this->name = strjoin("dtrace", "-bench");
	@calls[probename, self->depth] = count();
	@lat = quantize(timestamp - start);
	@sz[execname] = lquantize(self->depth, 0, 100, 10);
	printf("%-16s %5d %s\n", execname, self->depth, this->name);
	self->depth++;
}

END
{
	printa("%-20s %@8d\n", @calls);
	trunc(@sz, 5);
}
)";

dt::provider_registry &registry()
{
	static dt::provider_registry reg(dt::plugin_search_path(), {}, {});
	return reg;
}

dt::program compile(const std::string &src)
{
	dt::compiler::input in;
	in.k = dt::compiler::input::kind::script;
	in.text = src;
	in.file = "bench.d";
	dt::compiler::settings s;
	s.registry = &registry();
	s.macro_args = {"bench.d"};
	return dt::compiler::compile({in}, s);
}

void BM_compile_script(benchmark::State &st)
{
	std::string src = k_script;
	for (auto _ : st) {
		dt::program p = compile(src);
		benchmark::DoNotOptimize(p.clauses.size());
	}
	st.SetBytesProcessed(st.iterations() * static_cast<int64_t>(src.size()));
}
BENCHMARK(BM_compile_script)->Unit(benchmark::kMicrosecond);

struct devnull {
	FILE *f = std::fopen("/dev/null", "w");
	~devnull() { std::fclose(f); }
};

// printf() records: the consumer decodes N firings of one clause.
void BM_consume_printf(benchmark::State &st)
{
	dt::program p = compile(
		"BEGIN { printf(\"%-16s %8d %x\\n\", \"some-process\", 42, 0xbeef); }");
	const dt::clause &c = p.clauses.at(0);
	const auto &args = c.actions.at(0).args;
	std::vector<uint8_t> firing(c.size, 0);
	dtrace_rechdr_t hdr{1, 0, 0};
	std::memcpy(firing.data(), &hdr, sizeof(hdr));
	std::strcpy(reinterpret_cast<char *>(firing.data() + args.at(0).offset), "some-process");
	int64_t v = 42;
	std::memcpy(firing.data() + args.at(1).offset, &v, args.at(1).size);
	v = 0xbeef;
	std::memcpy(firing.data() + args.at(2).offset, &v, args.at(2).size);
	const size_t n = 1024;
	std::vector<uint8_t> buf;
	for (size_t i = 0; i < n; i++)
		buf.insert(buf.end(), firing.begin(), firing.end());

	devnull out;
	dt::enabled_probe ep{1, 1, {"dtrace", "", "", "BEGIN"}, 0};
	dt::consumer_settings cs;
	cs.out = out.f;
	cs.err = out.f;
	cs.quiet = true;
	dt::consumer con(p, {ep}, cs);
	for (auto _ : st)
		con.records(buf, 0);
	st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_consume_printf);

// printa() at exit: a count() keyed by a string and an int, range(0) keys.
void BM_printa_count(benchmark::State &st)
{
	dt::program p = compile("BEGIN { @c[execname, pid] = count(); }");
	const dt::aggregation &ag = p.aggregations.at(0);
	const auto keys = static_cast<size_t>(st.range(0));
	devnull out;
	dt::enabled_probe ep{1, 1, {"dtrace", "", "", "BEGIN"}, 0};
	for (auto _ : st) {
		st.PauseTiming();
		dt::consumer_settings cs;
		cs.out = out.f;
		cs.err = out.f;
		cs.quiet = true;
		auto con = std::make_unique<dt::consumer>(p, std::vector<dt::enabled_probe>{ep}, cs);
		for (size_t i = 0; i < keys; i++) {
			dt::agg_data d;
			d.aggid = ag.id;
			d.key.assign(ag.key_size, 0);
			std::snprintf(reinterpret_cast<char *>(d.key.data() + ag.key_offsets[0]),
				      ag.keys[0].size, "proc-%zu", i % 97);
			int64_t pid = static_cast<int64_t>(i);
			std::memcpy(d.key.data() + ag.key_offsets[1], &pid, ag.keys[1].size);
			d.value.assign(ag.nwords, static_cast<int64_t>(i * 7 % 1000));
			con->aggregation(d);
		}
		st.ResumeTiming();
		con->finish();
	}
	st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(keys));
}
BENCHMARK(BM_printa_count)->Arg(100)->Arg(10000)->Unit(benchmark::kMicrosecond);

// The user engine: enable BEGIN with a predicate, a thread-local, a
// string and an aggregation, fire it once (go), drain into a consumer.
void BM_user_engine_begin(benchmark::State &st)
{
	dt::program p = compile("BEGIN /pid != 0/ { self->x = timestamp; "
				"@a[execname] = sum(self->x & 0xff); trace(probename); }");
	devnull out;
	for (auto _ : st) {
		dt::engine_settings es;
		es.registry = &registry();
		auto eng = dt::make_user_engine(es);
		auto eps = eng->enable(p);
		dt::consumer_settings cs;
		cs.out = out.f;
		cs.err = out.f;
		cs.quiet = true;
		dt::consumer con(p, eps, cs);
		eng->go();
		eng->drain(con);
	}
}
BENCHMARK(BM_user_engine_begin)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
