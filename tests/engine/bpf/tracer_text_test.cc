// SPDX-License-Identifier: MIT
// core/engine/bpf/tracer_text: the text ranges of a raw tracepoint's
// dispatch (bpf_trace_runN, __bpf_trace_<tp>, __traceiter_<tp>) from a
// kallsyms file, and which clauses need them.
#include "tracer_text.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace {

using dt::engines::bpf::reads_kernel_stack;
using dt::engines::bpf::text_range;
using dt::engines::bpf::tracer_text;

struct temp_file {
	std::string path;
	explicit temp_file(const std::string &text)
	{
		char p[] = "/tmp/dt_tracer_text_XXXXXX";
		int fd = mkstemp(p);
		EXPECT_GE(fd, 0);
		close(fd);
		path = p;
		std::ofstream(path) << text;
	}
	~temp_file() { unlink(path.c_str()); }
};

// As Linux 6.18 lists them: function padding (__pfx_) between functions,
// a tracepoint's probe in a module, data among the text.
constexpr const char *k_kallsyms = R"(ffffffff81000000 T _stext
ffffffff81200000 t __bpf_trace_sys_enter
ffffffff81200010 T __pfx___bpf_trace_sys_exit
ffffffff81200020 t __bpf_trace_sys_exit
ffffffff81200040 D a_variable
ffffffff81200060 T __traceiter_sys_enter
ffffffff812000d0 T __traceiter_sys_exit
ffffffff81200140 T after_the_iterators
ffffffff814ba320 T bpf_trace_run1
ffffffff814ba4c0 t __pfx___bpf_trace_bpf_trace_printk
ffffffff814ba4d0 t __bpf_trace_bpf_trace_printk
ffffffff814ba4f0 T bpf_trace_run2
ffffffff814ba6a0 T __pfx_bpf_trace_run3
ffffffff814ba6b0 T bpf_trace_run3
ffffffff814ba860 T bpf_probe_read_kernel
ffffffff81a00000 T _etext
ffffffffc0100000 t __bpf_trace_mod_event	[mymod]
ffffffffc0100040 t mod_fn	[mymod]
)";

constexpr text_range k_runs{0xffffffff814ba320, 0xffffffff814ba860 - 0xffffffff814ba320};

TEST(tracer_text, ranges_of_the_dispatch_from_kallsyms)
{
	temp_file f(k_kallsyms);
	tracer_text t(f.path);
	// bpf_trace_run1..3 as one range; each function ends where the next
	// text symbol begins (data does not end one).
	EXPECT_EQ(t.of("sys_enter"),
		  (std::vector<text_range>{
			  k_runs, {0xffffffff81200000, 0x10}, {0xffffffff81200060, 0x70}}));
	EXPECT_EQ(t.of("sys_exit"),
		  (std::vector<text_range>{
			  k_runs, {0xffffffff81200020, 0x40}, {0xffffffff812000d0, 0x70}}));
	// A module's tracepoint without an iterator.
	EXPECT_EQ(t.of("mod_event"), (std::vector<text_range>{k_runs, {0xffffffffc0100000, 0x40}}));
	EXPECT_EQ(t.of("no_such_tracepoint"), std::vector<text_range>{k_runs});
}

// Without privilege kallsyms shows every address as 0; without the file,
// nothing: no ranges, and the program skips nothing.
TEST(tracer_text, nothing_without_addresses)
{
	temp_file f(
		"0000000000000000 T bpf_trace_run1\n0000000000000000 t __bpf_trace_sys_enter\n");
	EXPECT_TRUE(tracer_text(f.path).of("sys_enter").empty());
	EXPECT_TRUE(tracer_text("/nonexistent/kallsyms").of("sys_enter").empty());
}

dt::difo reading(uint32_t var)
{
	dt::difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDGS, var, 1), DIF_INSTR_RET(1)};
	return d;
}

TEST(tracer_text, clauses_that_read_the_kernel_stack)
{
	dt::clause none;
	dt::action tr;
	tr.kind = DTRACEACT_DIFEXPR;
	tr.args.emplace_back();
	tr.args.back().expr = reading(DIF_VAR_PID);
	none.actions.push_back(tr);
	EXPECT_FALSE(reads_kernel_stack(none));

	dt::clause st = none;
	dt::action s;
	s.kind = DTRACEACT_STACK;
	st.actions.push_back(s);
	EXPECT_TRUE(reads_kernel_stack(st));

	dt::clause pred = none;
	pred.predicate = reading(DIF_VAR_CALLER);
	EXPECT_TRUE(reads_kernel_stack(pred));

	dt::clause depth = none;
	depth.actions[0].args[0].expr = reading(DIF_VAR_STACKDEPTH);
	EXPECT_TRUE(reads_kernel_stack(depth));

	dt::clause key = none; // @[stack()]
	dt::action agg;
	agg.kind = DTRACEAGG_COUNT;
	agg.keys.emplace_back();
	agg.keys.back().type.k = dt::value_type::kind::stack;
	key.actions.push_back(agg);
	EXPECT_TRUE(reads_kernel_stack(key));
}

} // namespace
