// SPDX-License-Identifier: MIT
// dt_sdt.so loaded directly (dlopen) against a tracefs tree built in a
// temporary directory, and against no tracefs at all: listing from
// available_events, query hints, argument types and names from the
// format files, the bpf engine's description, and the "needs tracefs"
// warning, without depending on the running kernel.
#include "plugin_handle.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

class SdtPlugin : public ::testing::Test {
protected:
	void SetUp() override
	{
		char tmpl[] = "/tmp/dt-sdt-test-XXXXXX";
		ASSERT_NE(mkdtemp(tmpl), nullptr);
		root_ = tmpl;
		add_event("sched", "sched_switch", 372,
			  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
			  "\tfield:int prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
			  "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n");
		add_event("sched", "sched_process_exec", 380,
			  "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
			  "\tfield:int pid;\toffset:12;\tsize:4;\tsigned:1;\n");
		add_event("timer", "timer_start", 400,
			  "\tfield:void * timer;\toffset:8;\tsize:8;\tsigned:0;\n");
		std::ofstream(root_ / "available_events")
			<< "timer:timer_start\nsched:sched_switch\nsched:sched_process_exec\n";
		h_.emplace(DT_SDT_PLUGIN, std::vector<int32_t>{}, root_.c_str());
		ASSERT_NE(h_->ops(), nullptr) << h_->error();
	}
	void TearDown() override
	{
		h_.reset();
		std::error_code ec;
		fs::remove_all(root_, ec);
	}

	void add_event(const std::string &group, const std::string &event, int id,
		       const std::string &fields)
	{
		fs::path d = root_ / "events" / group / event;
		fs::create_directories(d);
		std::ofstream(d / "format")
			<< "name: " << event << "\nID: " << id << "\nformat:\n"
			<< "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			<< "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			<< fields << "\nprint fmt: \"\"\n";
	}

	std::vector<std::string> list(const char *mod, const char *func, const char *name)
	{
		std::vector<std::string> out;
		for (const auto &p : h_->probes("sdt", mod, func, name)) {
			EXPECT_EQ(p.provider, "sdt");
			EXPECT_EQ(p.func, "");
			out.push_back(p.mod + ":" + p.name);
		}
		return out;
	}

	static dt_probe_info_t info(const char *mod, const char *name)
	{
		return {sizeof(dt_probe_info_t), "sdt", mod, "", name, 0};
	}

	fs::path root_;
	std::optional<dt::test::plugin_handle> h_;
};

TEST_F(SdtPlugin, lists_available_events_sorted_by_group_and_event)
{
	EXPECT_EQ(list("", "", ""),
		  (std::vector<std::string>{"sched:sched_process_exec", "sched:sched_switch",
					    "timer:timer_start"}));
	EXPECT_EQ(list("sched", "", ""),
		  (std::vector<std::string>{"sched:sched_process_exec", "sched:sched_switch"}));
	EXPECT_EQ(list("", "", "sched_switch"), (std::vector<std::string>{"sched:sched_switch"}));
	EXPECT_EQ(list("t*", "", "*start"), (std::vector<std::string>{"timer:timer_start"}));
	// A function never matches: sdt probes have none.
	EXPECT_TRUE(list("", "schedule", "").empty());
	// A literal group and event: that directory alone.
	EXPECT_EQ(list("sched", "", "sched_switch"),
		  (std::vector<std::string>{"sched:sched_switch"}));
	EXPECT_TRUE(list("sched", "", "no_such_event").empty());
	EXPECT_TRUE(list("..", "", "sched").empty());
}

TEST_F(SdtPlugin, arguments_are_the_format_fields_typed_and_named)
{
	auto args = h_->args(info("sched", "sched_switch"));
	ASSERT_EQ(args.size(), 3u);
	EXPECT_EQ(args[0].native, "string");
	EXPECT_EQ(args[0].name, "prev_comm");
	EXPECT_EQ(args[1].native, "int");
	EXPECT_EQ(args[1].name, "prev_pid");
	EXPECT_EQ(args[1].ndx, 1);
	EXPECT_EQ(args[1].mapping, 1);
	EXPECT_EQ(args[2].xlate, "");
	int rc = 0;
	EXPECT_TRUE(h_->args(info("sched", "no_such_event"), &rc).empty());
	EXPECT_EQ(rc, -ENOENT);
}

TEST_F(SdtPlugin, bpf_reads_each_field_at_its_offset_and_size)
{
	dt_bpf_attach_t a{};
	ASSERT_EQ(h_->bpf_attach(info("sched", "sched_process_exec"), a), 0);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_TRACEPOINT);
	EXPECT_STREQ(a.target, "sched:sched_process_exec");
	EXPECT_EQ(a.offset, 380u); // the event's ID
	EXPECT_EQ(a.ctx, DT_BPF_CTX_TP_RECORD);
	EXPECT_EQ(a.nargs, 16u); // the record's size
	EXPECT_EQ(a.has_argmap, 1);
	EXPECT_EQ(a.argmap[0], 8);
	EXPECT_EQ(a.argfmt[0], DT_BPF_TP_SIZE(4) | DT_BPF_TP_DATA_LOC);
	EXPECT_EQ(a.argmap[1], 12);
	EXPECT_EQ(a.argfmt[1], DT_BPF_TP_SIZE(4) | DT_BPF_TP_SIGNED);
	EXPECT_EQ(a.argmap[2], -1);

	dt_probe_fire_t f{};
	ASSERT_EQ(h_->fires(info("sched", "sched_switch"), f), 0);
	EXPECT_EQ(f.kind, DT_FIRE_TRACEPOINT);
	EXPECT_EQ(f.engines, static_cast<uint32_t>(DT_ENGINE_BPF));
	EXPECT_STREQ(f.target, "sched:sched_switch");
	EXPECT_EQ(h_->ops()->kmod, nullptr);

	EXPECT_EQ(h_->bpf_attach(info("sched", "no_such_event"), a), -ENOENT);
	ASSERT_FALSE(h_->messages().empty());
	EXPECT_NE(h_->messages().back().find("sdt:sched::no_such_event"), std::string::npos);
}

TEST_F(SdtPlugin, without_tracefs_no_probes_and_one_warning)
{
	h_.emplace(DT_SDT_PLUGIN, std::vector<int32_t>{}, nullptr);
	ASSERT_NE(h_->ops(), nullptr) << h_->error();
	EXPECT_TRUE(list("", "", "").empty());
	EXPECT_TRUE(list("sched", "", "sched_switch").empty());
	ASSERT_EQ(h_->messages().size(), 1u);
	EXPECT_NE(h_->messages()[0].find("sdt provider: no probes: no tracefs is mounted"),
		  std::string::npos)
		<< h_->messages()[0];
}

TEST_F(SdtPlugin, unreadable_available_events_is_said)
{
	fs::remove(root_ / "available_events");
	EXPECT_TRUE(list("", "", "").empty());
	ASSERT_EQ(h_->messages().size(), 1u);
	EXPECT_NE(h_->messages()[0].find("available_events"), std::string::npos);
}

} // namespace
