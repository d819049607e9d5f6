// SPDX-License-Identifier: MIT
// dt_syscall.so loaded directly (dlopen) against a tracefs tree built in a
// temporary directory, and against no tracefs at all: listing, cookies,
// argument types and the "needs tracefs and root" warning, without
// depending on the running kernel.
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

struct probe {
	std::string mod, func, name;
	uint64_t cookie;
	bool operator==(const probe &) const = default;
};

struct arg {
	int ndx;
	std::string native, name;
	bool operator==(const arg &) const = default;
};

class SyscallPlugin : public ::testing::Test {
protected:
	void SetUp() override
	{
		h_.emplace(DT_SYSCALL_PLUGIN);
		ops_ = h_->ops();
		ASSERT_NE(ops_, nullptr) << h_->error();
		char tmpl[] = "/tmp/dt-syscall-test-XXXXXX";
		ASSERT_NE(mkdtemp(tmpl), nullptr);
		root_ = tmpl;
	}
	void TearDown() override
	{
		h_.reset();
		std::error_code ec;
		fs::remove_all(root_, ec);
	}

	void add_event(const std::string &event, int id, const std::string &fields)
	{
		fs::path d = root_ / "events" / "syscalls" / event;
		fs::create_directories(d);
		std::ofstream(d / "id") << id << "\n";
		std::ofstream(d / "format")
			<< "name: " << event << "\nID: " << id << "\nformat:\n"
			<< "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			<< "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			<< "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
			<< fields << "\nprint fmt: \"\"\n";
	}

	// The plugin loaded afresh with this tracefs root; init()'s return.
	int init(const char *tracefs)
	{
		h_.emplace(DT_SYSCALL_PLUGIN, std::vector<int32_t>{}, tracefs);
		ops_ = h_->ops();
		return h_->init_rc();
	}

	std::vector<probe> list(const char *mod, const char *func, const char *name,
				int *rc = nullptr)
	{
		std::vector<probe> out;
		for (const auto &p : h_->probes("syscall", mod, func, name, rc)) {
			EXPECT_EQ(p.provider, "syscall");
			out.push_back({p.mod, p.func, p.name, p.cookie});
		}
		return out;
	}

	std::vector<arg> args(const char *func, const char *name, int *rc = nullptr)
	{
		std::vector<arg> out;
		dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", func, name, 0};
		for (const auto &a : h_->args(p, rc)) {
			EXPECT_EQ(a.mapping, a.ndx);
			EXPECT_EQ(a.xlate, ""); // NULL: args[] has the native type
			out.push_back({a.ndx, a.native, a.name});
		}
		return out;
	}

	std::optional<dt::test::plugin_handle> h_;
	const dt_plugin_ops_t *ops_ = nullptr;
	fs::path root_;
};

} // namespace

TEST_F(SyscallPlugin, OpsTableDescribesSystrace)
{
	EXPECT_STREQ(ops_->name, "syscall");
	EXPECT_EQ(ops_->priv, static_cast<uint32_t>(DT_PRIV_USER));
	EXPECT_EQ(ops_->attr.provider.name, DT_STABILITY_EVOLVING);
	EXPECT_EQ(ops_->attr.provider.klass, DT_CLASS_COMMON);
	EXPECT_EQ(ops_->attr.mod.name, DT_STABILITY_PRIVATE);
	EXPECT_EQ(ops_->attr.mod.klass, DT_CLASS_UNKNOWN);
	EXPECT_EQ(ops_->attr.func.klass, DT_CLASS_ISA);
	EXPECT_EQ(ops_->attr.name.data, DT_STABILITY_EVOLVING);
	EXPECT_EQ(ops_->attr.args.name, DT_STABILITY_PRIVATE);
	EXPECT_EQ(ops_->attr.args.klass, DT_CLASS_ISA);
	ASSERT_NE(ops_->kmod, nullptr);
	EXPECT_EQ(ops_->kmod->sz, sizeof(dt_plugin_kmod_ops_t));
	EXPECT_STREQ(ops_->kmod->module, "dtrace_syscall");
	ASSERT_NE(ops_->bpf, nullptr);
	EXPECT_EQ(ops_->bpf->sz, sizeof(dt_plugin_bpf_ops_t));
	EXPECT_NE(ops_->bpf->attach, nullptr);
}

TEST_F(SyscallPlugin, ListsFakeTreeSortedWithIdCookies)
{
	const char *fd = "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n";
	const char *ret = "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n";
	add_event("sys_enter_write", 11, fd);
	add_event("sys_exit_write", 10, ret);
	add_event("sys_enter_read", 21, fd);
	add_event("sys_exit_read", 20, ret);
	add_event("sys_enter_exit", 31,
		  "\tfield:int error_code;\toffset:16;\tsize:8;\tsigned:0;\n");
	fs::create_directories(root_ / "events" / "syscalls" / "enable_not_an_event");
	ASSERT_EQ(init(root_.c_str()), 0);

	int rc = -1;
	std::vector<probe> want = {
		{"vmlinux", "exit", "entry", 31},   {"vmlinux", "read", "entry", 21},
		{"vmlinux", "read", "return", 20},  {"vmlinux", "write", "entry", 11},
		{"vmlinux", "write", "return", 10},
	};
	EXPECT_EQ(list("", "", "", &rc), want);
	EXPECT_EQ(rc, 0);
	EXPECT_EQ(list("", "r*", "return"),
		  (std::vector<probe>{{"vmlinux", "read", "return", 20}}));
	EXPECT_EQ(list("vmlinux", "write", ""),
		  (std::vector<probe>{{"vmlinux", "write", "entry", 11},
				      {"vmlinux", "write", "return", 10}}));
	EXPECT_TRUE(list("", "nosuchcall", "").empty());
	EXPECT_TRUE(list("", "../syscalls", "").empty());
	EXPECT_TRUE(list("somemodule", "", "").empty());
	EXPECT_TRUE(h_->messages().empty());
}

TEST_F(SyscallPlugin, ArgsComeFromTheFormatFile)
{
	add_event("sys_enter_openat", 782,
		  "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
		  "\tfield:umode_t mode;\toffset:32;\tsize:8;\tsigned:0;\n");
	add_event("sys_exit_openat", 781, "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n");
	ASSERT_EQ(init(root_.c_str()), 0);
	EXPECT_EQ(args("openat", "entry"), (std::vector<arg>{{0, "int", "dfd"},
							     {1, "const char *", "filename"},
							     {2, "umode_t", "mode"}}));
	EXPECT_EQ(args("openat", "return"),
		  (std::vector<arg>{{0, "long", "ret"}, {1, "long", "ret"}}));
	int rc = 0;
	EXPECT_TRUE(args("nosuchcall", "entry", &rc).empty());
	EXPECT_EQ(rc, -ENOENT);
}

TEST_F(SyscallPlugin, NoTracefsWarnsOnceAndListsNothing)
{
	ASSERT_EQ(init(nullptr), 0);
	int rc = -1;
	EXPECT_TRUE(list("", "", "", &rc).empty());
	EXPECT_EQ(rc, 0);
	EXPECT_TRUE(list("", "openat", "entry", &rc).empty());
	EXPECT_EQ(rc, 0);
	ASSERT_EQ(h_->messages().size(), 1u);
	EXPECT_EQ(h_->levels()[0], DT_LOG_WARN);
	EXPECT_NE(h_->messages()[0].find("tracefs"), std::string::npos) << h_->messages()[0];
	EXPECT_NE(h_->messages()[0].find("root"), std::string::npos) << h_->messages()[0];
	EXPECT_TRUE(args("openat", "entry").empty());
}

TEST_F(SyscallPlugin, UnreadableTracefsWarnsOnceAndListsNothing)
{
	std::string missing = (root_ / "not-mounted").string();
	ASSERT_EQ(init(missing.c_str()), 0);
	int rc = -1;
	EXPECT_TRUE(list("", "open*", "", &rc).empty());
	EXPECT_EQ(rc, 0);
	EXPECT_TRUE(list("", "openat", "", &rc).empty());
	EXPECT_EQ(rc, 0);
	ASSERT_EQ(h_->messages().size(), 1u);
	EXPECT_NE(h_->messages()[0].find(missing), std::string::npos) << h_->messages()[0];
	EXPECT_NE(h_->messages()[0].find("root"), std::string::npos) << h_->messages()[0];
}

// The bpf hook's own event (plugin.h ABI 1.5): the probe's tracepoint,
// its ID from the cookie, arguments at the record's offsets, offered once
// a format file shows the kernel's layout (16 + 8k) and not otherwise.
TEST_F(SyscallPlugin, OwnEventIsTheTracepointWhenTheRecordLayoutIsTheKernels)
{
	add_event("sys_enter_read", 7,
		  "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:char * buf;\toffset:24;\tsize:8;\tsigned:0;\n");
	ASSERT_EQ(init(root_.c_str()), 0);
	dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", "read", "entry", 7};
	dt_bpf_attach_t a;
	ASSERT_EQ(h_->bpf_attach(p, a), 0);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_RAW_TRACEPOINT);
	EXPECT_STREQ(a.target, "sys_enter");
	EXPECT_EQ(a.own_kind, DT_BPF_ATTACH_TRACEPOINT);
	EXPECT_STREQ(a.own_target, "syscalls:sys_enter_read");
	EXPECT_EQ(a.own_offset, 7u);
	EXPECT_EQ(a.own_ctx, DT_BPF_CTX_TP_RECORD);
	EXPECT_EQ(a.own_argmap[0], 16);
	EXPECT_EQ(a.own_argmap[1], 24);
	EXPECT_EQ(a.own_argmap[6], -1);

	// A return probe: arg0 and arg1 are the return value.
	dt_probe_info_t r = {sizeof(r), "syscall", "vmlinux", "read", "return", 8};
	ASSERT_EQ(h_->bpf_attach(r, a), 0);
	EXPECT_STREQ(a.own_target, "syscalls:sys_exit_read");
	EXPECT_EQ(a.own_argmap[0], 16);
	EXPECT_EQ(a.own_argmap[1], 16);
	EXPECT_EQ(a.own_argmap[2], -1);
}

TEST_F(SyscallPlugin, NoOwnEventWhenTheRecordLayoutDiffers)
{
	add_event("sys_enter_read", 7,
		  "\tfield:unsigned int fd;\toffset:12;\tsize:4;\tsigned:0;\n");
	ASSERT_EQ(init(root_.c_str()), 0);
	dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", "read", "entry", 7};
	dt_bpf_attach_t a;
	ASSERT_EQ(h_->bpf_attach(p, a), 0);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_RAW_TRACEPOINT);
	EXPECT_EQ(a.own_kind, DT_BPF_ATTACH_NONE);
}
