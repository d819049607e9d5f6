// SPDX-License-Identifier: MIT
// The kmod engine's ENABLE blob (core/engine/kmod/program_blob.hpp): the
// speculation options and -w as dtrace.ko reads them from the header
// (kmod/include/uapi/dtrace/ioctl.h, dtrace_prog_hdr_t), and speculate()
// as a record carrying its speculation id.
#include "dif_builder.hpp"
#include "kmod_blob_reader.hpp"
#include "program_blob.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace dt;
using namespace dt::test;

namespace {

program speculating_program()
{
	program p;
	clause c = clause_on("dtrace", "BEGIN", 24); // speculate(1); trace(7)
	action spec;
	spec.kind = DTRACEACT_SPECULATE;
	spec.args.push_back(int_record(int_const(1), 0));
	spec.args[0].size = 0;
	c.actions.push_back(spec);
	c.actions.push_back(trace_action(int_record(int_const(7), 16)));
	p.clauses.push_back(c);
	return p;
}

// dtrace.ko's dten_erroff for a refused ECB points into its section: the
// range each ecb_origin records is exactly that section's (so the engine
// names the description without reading the kernel's message).
TEST(kmod_blob, each_ecb_knows_its_section)
{
	program p = speculating_program();
	p.clauses.push_back(clause_on("dtrace", "END", 16));
	p.clauses[1].descs.push_back({"profile", "", "", "tick-1s"});
	kmod::program_blob b = kmod::make_program_blob(p, {});
	ASSERT_EQ(b.ecbs.size(), 3u);
	std::vector<std::pair<uint32_t, uint32_t>> sections;
	size_t off = sizeof(dtrace_prog_hdr_t);
	while (off + sizeof(dtrace_prog_sec_t) <= b.bytes.size()) {
		dtrace_prog_sec_t s;
		std::memcpy(&s, b.bytes.data() + off, sizeof(s));
		ASSERT_GT(s.dtps_size, 0u);
		if (s.dtps_type == DTRACE_PSEC_ECB)
			sections.emplace_back(off, off + s.dtps_size);
		off += s.dtps_size;
	}
	ASSERT_EQ(sections.size(), 4u); // three ECBs, then the engine's ERROR
	for (size_t i = 0; i < b.ecbs.size(); i++) {
		EXPECT_EQ(b.ecbs[i].begin, sections[i].first) << i;
		EXPECT_EQ(b.ecbs[i].end, sections[i].second) << i;
	}
	EXPECT_EQ(b.ecbs[0].clause, 0u);
	EXPECT_EQ(b.ecbs[1].clause, 1u);
	EXPECT_EQ(b.ecbs[2].clause, 1u);
	EXPECT_EQ(b.ecbs[2].desc.name, "tick-1s");
}

TEST(kmod_blob, speculation_defaults_are_one_buffer_of_32k)
{
	dtrace_prog_hdr_t h = header_of(kmod::make_program_blob(speculating_program(), {}));
	EXPECT_EQ(h.dtph_hdrsize, sizeof(dtrace_prog_hdr_t));
	EXPECT_EQ(h.dtph_nspec, 1u);
	EXPECT_EQ(h.dtph_specsize, 32u << 10);
	EXPECT_EQ(h.dtph_cleanrate, 0u); // the kernel's 101 Hz
	EXPECT_EQ(h.dtph_spec_pad, 0u);
	EXPECT_EQ(h.dtph_flags & DTRACE_PROGF_DESTRUCTIVE, 0u);
}

TEST(kmod_blob, nspec_specsize_cleanrate_options)
{
	program p = speculating_program();
	p.options["nspec"] = "3";
	p.options["specsize"] = "1k";
	p.options["cleanrate"] = "50hz";
	dtrace_prog_hdr_t h = header_of(kmod::make_program_blob(p, {}));
	EXPECT_EQ(h.dtph_nspec, 3u);
	EXPECT_EQ(h.dtph_specsize, 1024u);
	EXPECT_EQ(h.dtph_cleanrate, 20'000'000u);
}

TEST(kmod_blob, nspec_and_specsize_are_bounded_as_the_kernel_requires)
{
	program p = speculating_program();
	p.options["nspec"] = "100000";
	p.options["specsize"] = "1g";
	dtrace_prog_hdr_t h = header_of(kmod::make_program_blob(p, {}));
	EXPECT_EQ(h.dtph_nspec, uint32_t{DTRACE_MAX_NSPEC});
	EXPECT_LE(uint64_t{h.dtph_nspec} * h.dtph_specsize, DTRACE_MAX_SPECMEM);
	EXPECT_GT(h.dtph_specsize, 0u);
}

TEST(kmod_blob, destructive_sets_the_header_flag)
{
	kmod::blob_options o;
	o.destructive = true;
	dtrace_prog_hdr_t h = header_of(kmod::make_program_blob(speculating_program(), o));
	EXPECT_EQ(h.dtph_flags & DTRACE_PROGF_DESTRUCTIVE, uint32_t{DTRACE_PROGF_DESTRUCTIVE});
}

// Record timestamps cost a clock read per firing: dtrace.ko writes them
// only for a consumer that orders firings by them (-x temporal).
TEST(kmod_blob, temporal_asks_for_record_timestamps)
{
	program p = speculating_program();
	EXPECT_EQ(header_of(kmod::make_program_blob(p, {})).dtph_flags & DTRACE_PROGF_TIMESTAMP,
		  0u);
	p.options["temporal"] = "";
	EXPECT_EQ(header_of(kmod::make_program_blob(p, {})).dtph_flags & DTRACE_PROGF_TIMESTAMP,
		  uint32_t{DTRACE_PROGF_TIMESTAMP});
}

TEST(kmod_blob, speculate_is_one_first_record_with_its_id)
{
	std::vector<dtrace_prog_act_t> acts =
		first_ecb_actions(kmod::make_program_blob(speculating_program(), {}));
	ASSERT_EQ(acts.size(), 2u);
	const dtrace_prog_act_t &a = acts[0];
	EXPECT_EQ(a.dtpa_kind, DTRACEACT_SPECULATE);
	EXPECT_EQ(a.dtpa_role, DTRACE_PROLE_ARG);
	EXPECT_EQ(a.dtpa_vkind, DTRACE_PV_INT);
	EXPECT_NE(a.dtpa_difo, 0u); // the id's DIF object
	EXPECT_EQ(a.dtpa_flags & DTRACE_PACT_FIRST, uint16_t{DTRACE_PACT_FIRST});
}

// illumos dtrace_ecb_resize(): an ECB whose actions all store nothing
// writes no firing (dte_size 0), so dtrace.ko reserves nothing and the
// consumer prints no probe line for `{ @ = count(); }`; a clause without
// actions records its EPID (the default output's probe line).
TEST(kmod_blob, a_clause_that_only_aggregates_records_nothing)
{
	program p;
	aggregation agg;
	agg.id = 1;
	agg.func = DTRACEAGG_COUNT;
	p.aggregations.push_back(agg);
	clause counting = clause_on("dtrace", "BEGIN", 16);
	action cnt;
	cnt.kind = DTRACEAGG_COUNT;
	cnt.aggid = 1;
	counting.actions.push_back(cnt);
	p.clauses.push_back(counting);
	p.clauses.push_back(clause_on("dtrace", "END", 16)); // no action
	clause tracing = clause_on("dtrace", "END", 24);
	tracing.actions.push_back(trace_action(int_record(int_const(7), 16)));
	p.clauses.push_back(tracing);

	std::vector<uint32_t> sizes = ecb_sizes(kmod::make_program_blob(p, {}));
	ASSERT_EQ(sizes.size(), 4u); // and the engine's ERROR ECB
	EXPECT_EQ(sizes[0], 0u);
	EXPECT_EQ(sizes[1], sizeof(dtrace_rechdr_t) + 4);
	EXPECT_EQ(sizes[2], 24u);
}

} // namespace
