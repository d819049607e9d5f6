// SPDX-License-Identifier: MIT
// The kmod engine's ENABLE blob (core/engine/kmod/program_blob.hpp):
// bufpolicy and option cpu as dtrace.ko reads them from the header, and
// ustack() / jstack() records and keys as DTRACE_PV_USTACK
// (kmod/include/uapi/dtrace/ioctl.h).
#include "dif_builder.hpp"
#include "kmod_blob_reader.hpp"
#include "program_blob.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace dt;
using namespace dt::test;

namespace {

program begin_trace()
{
	program p;
	clause c = clause_on("dtrace", "BEGIN", 24);
	c.actions.push_back(trace_action(int_record(int_const(7), 16)));
	p.clauses.push_back(c);
	return p;
}

uint32_t policy_flags(const char *policy)
{
	program p = begin_trace();
	if (policy != nullptr)
		p.options["bufpolicy"] = policy;
	return header_of(kmod::make_program_blob(p, {})).dtph_flags &
	       (DTRACE_PROGF_FILL | DTRACE_PROGF_RING);
}

TEST(kmod_blob, bufpolicy_is_a_header_flag)
{
	EXPECT_EQ(policy_flags(nullptr), 0u);
	EXPECT_EQ(policy_flags("switch"), 0u);
	EXPECT_EQ(policy_flags("fill"), uint32_t{DTRACE_PROGF_FILL});
	EXPECT_EQ(policy_flags("ring"), uint32_t{DTRACE_PROGF_RING});
}

// Option cpu (the engine reads it, blob_options carries it): the one CPU
// dtrace.ko traces. Without it neither the flag nor the CPU is set, so
// that the word stays zero as a reserved one was.
TEST(kmod_blob, cpu_is_a_header_flag_and_word)
{
	dtrace_prog_hdr_t h = header_of(kmod::make_program_blob(begin_trace(), {}));
	EXPECT_EQ(h.dtph_flags & DTRACE_PROGF_CPU, 0u);
	EXPECT_EQ(h.dtph_cpu, 0u);
	kmod::blob_options o;
	o.cpu = 3;
	h = header_of(kmod::make_program_blob(begin_trace(), o));
	EXPECT_EQ(h.dtph_flags & DTRACE_PROGF_CPU, uint32_t{DTRACE_PROGF_CPU});
	EXPECT_EQ(h.dtph_cpu, 3u);
	o.cpu = 0;
	h = header_of(kmod::make_program_blob(begin_trace(), o));
	EXPECT_EQ(h.dtph_flags & DTRACE_PROGF_CPU, uint32_t{DTRACE_PROGF_CPU});
	EXPECT_EQ(h.dtph_cpu, 0u);
}

TEST(kmod_blob, an_unknown_bufpolicy_is_refused)
{
	program p = begin_trace();
	p.options["bufpolicy"] = "spill";
	try {
		(void)kmod::make_program_blob(p, {});
		FAIL() << "bufpolicy=spill accepted";
	} catch (const engine_error &e) {
		EXPECT_STREQ(e.what(), "invalid value for option bufpolicy: spill");
	}
}

TEST(kmod_blob, ustack_is_the_pid_then_its_frames)
{
	program p;
	clause c = clause_on("dtrace", "BEGIN", 16 + 8 * 11);
	action u;
	u.kind = DTRACEACT_USTACK;
	u.nframes = 10;
	record r;
	r.type.k = value_type::kind::ustack;
	r.type.size = 8 * 11;
	r.offset = 16;
	r.size = 8 * 11;
	u.args.push_back(r);
	c.actions.push_back(u);
	p.clauses.push_back(c);
	std::vector<dtrace_prog_act_t> acts = first_ecb_actions(kmod::make_program_blob(p, {}));
	ASSERT_EQ(acts.size(), 1u);
	EXPECT_EQ(acts[0].dtpa_kind, DTRACEACT_USTACK);
	EXPECT_EQ(acts[0].dtpa_vkind, DTRACE_PV_USTACK);
	EXPECT_EQ(acts[0].dtpa_nframes, 10u);
	EXPECT_EQ(acts[0].dtpa_size, 88u);
	EXPECT_EQ(acts[0].dtpa_offset, 16u);
}

} // namespace
