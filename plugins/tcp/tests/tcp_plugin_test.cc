// SPDX-License-Identifier: MIT
// tcp provider: what `dtrace -l`/`-lv` print for it, byte for byte, and
// what the plugin's ops table says that -lv does not show (native types,
// mappings, cookies).
//
// Probe IDs: the registry numbers probes in the order it first sees
// them, the dtrace provider's BEGIN/END/ERROR being 1-3. With only tcp
// loaded (-P tcp), tcp's probes are 4..11 in table order; with -n naming
// one probe, that probe alone is seen, as 4.
#include "listing.hpp"
#include "plugin_handle.hpp"
#include "run_dtrace.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

using dt::test::dtrace;
using dt::test::lv_attributes;
using dt::test::plugin_handle;
using dt::test::reported_arg;
using dt::test::reported_probe;

constexpr const char *k_header =
	"   ID   PROVIDER            MODULE                          FUNCTION NAME\n";

// The Guide's tcp probes, in the order we list them.
constexpr const char *k_names[] = {
	"accept-established", "accept-refused", "connect-request", "connect-established",
	"connect-refused",    "send",		"receive",	   "state-change",
};

// The raw tracepoint each fires on (what -lv says the bpf engine can
// run): every probe has one.
constexpr const char *k_events[] = {
	"inet_sock_set_state", "tcp_send_reset", "net_dev_queue", "inet_sock_set_state",
	"tcp_receive_reset",   "net_dev_queue",	 "tcp_probe",	  "inet_sock_set_state",
};
static_assert(std::size(k_events) == std::size(k_names));

const std::string k_attr_blocks =
	lv_attributes("Private", "Private", "Unknown", "Evolving", "Evolving", "ISA");

const char *const k_segment_types = "\n"
				    "\tArgument Types\n"
				    "\t\targs[0]: pktinfo_t *\n"
				    "\t\targs[1]: csinfo_t *\n"
				    "\t\targs[2]: ipinfo_t *\n"
				    "\t\targs[3]: tcpsinfo_t *\n"
				    "\t\targs[4]: tcpinfo_t *\n"
				    "\n";

const char *const k_state_change_types = "\n"
					 "\tArgument Types\n"
					 "\t\targs[0]: void\n"
					 "\t\targs[1]: csinfo_t *\n"
					 "\t\targs[2]: void\n"
					 "\t\targs[3]: tcpsinfo_t *\n"
					 "\t\targs[4]: void\n"
					 "\t\targs[5]: tcplsinfo_t *\n"
					 "\n";

std::string row(unsigned id, const char *name)
{
	char buf[256];
	std::snprintf(buf, sizeof(buf), "%5u %10s %17s %33s %s\n", id, "tcp", "vmlinux", "", name);
	return buf;
}

TEST(TcpCli, ListsEightProbesInTableOrder)
{
	auto r = dtrace({"-l", "-P", "tcp"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(
		r.out,
		std::string(k_header) +
			"    4        tcp           vmlinux                                   accept-established\n"
			"    5        tcp           vmlinux                                   accept-refused\n"
			"    6        tcp           vmlinux                                   connect-request\n"
			"    7        tcp           vmlinux                                   connect-established\n"
			"    8        tcp           vmlinux                                   connect-refused\n"
			"    9        tcp           vmlinux                                   send\n"
			"   10        tcp           vmlinux                                   receive\n"
			"   11        tcp           vmlinux                                   state-change\n");
}

TEST(TcpCli, StateChangeListed)
{
	auto r = dtrace({"-l", "-n", "tcp:::state-change"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(
		r.out,
		std::string(k_header) +
			"    4        tcp           vmlinux                                   state-change\n");
}

TEST(TcpCli, StateChangeVerbose)
{
	auto r = dtrace({"-lv", "-n", "tcp:::state-change"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(
		r.out,
		std::string(k_header) +
			"    4        tcp           vmlinux                                   state-change\n" +
			k_attr_blocks + k_state_change_types);
}

TEST(TcpCli, EveryProbeVerbose)
{
	auto r = dtrace({"-lv", "-P", "tcp"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::string want = k_header;
	unsigned id = 4;
	for (size_t i = 0; i < std::size(k_names); i++) {
		const char *n = k_names[i];
		want += row(id++, n) + k_attr_blocks +
			(std::string(n) == "state-change" ? k_state_change_types : k_segment_types);
	}
	EXPECT_EQ(r.out, want);
}

TEST(TcpCli, GlobOverNamesKeepsTableOrder)
{
	auto r = dtrace({"-l", "-n", "tcp:::connect-*"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, std::string(k_header) + row(4, "connect-request") +
				 row(5, "connect-established") + row(6, "connect-refused"));
}

TEST(TcpCli, WrongModuleDoesNotMatch)
{
	auto r = dtrace({"-l", "-n", "tcp:ip::send"});
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.err, "dtrace: failed to match tcp:ip::send: No probe matches description\n");
}

// ip and udp (plugins/ip, plugins/udp): two probes each, the Guide's
// argument types, the bpf engine only.
TEST(NetCli, IpAndUdpListTheirProbesAndArguments)
{
	auto r = dtrace({"-l", "-P", "ip", "-P", "udp"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto line = [](unsigned id, const char *prov, const char *name) {
		char buf[256];
		std::snprintf(buf, sizeof(buf), "%5u %10s %17s %33s %s\n", id, prov, "vmlinux", "",
			      name);
		return std::string(buf);
	};
	EXPECT_EQ(r.out, std::string(k_header) + line(4, "ip", "receive") + line(5, "ip", "send") +
				 line(6, "udp", "receive") + line(7, "udp", "send"));
	const std::pair<const char *, const char *> want[] = {
		{"ip:::send", "\t\targs[0]: pktinfo_t *\n\t\targs[1]: csinfo_t *\n"
			      "\t\targs[2]: ipinfo_t *\n\t\targs[3]: ifinfo_t *\n"
			      "\t\targs[4]: ipv4info_t *\n\t\targs[5]: ipv6info_t *\n"},
		{"udp:::receive", "\t\targs[0]: pktinfo_t *\n\t\targs[1]: csinfo_t *\n"
				  "\t\targs[2]: ipinfo_t *\n\t\targs[3]: udpsinfo_t *\n"
				  "\t\targs[4]: udpinfo_t *\n\n"},
	};
	for (const auto &[probe, types] : want) {
		auto v = dtrace({"-lv", "-n", probe});
		ASSERT_EQ(v.status, 0) << v.err;
		EXPECT_NE(v.out.find(types), std::string::npos) << v.out;
		// DTrace's layout: the argument types end the probe's block.
		EXPECT_EQ(v.out.find("Engines"), std::string::npos) << v.out;
	}
}

// ---- the ops table, loaded directly -------------------------------------

class TcpPlugin : public ::testing::Test {
protected:
	void SetUp() override
	{
		ops_ = h_.ops();
		ASSERT_NE(ops_, nullptr) << h_.error();
	}

	std::vector<reported_probe> probes()
	{
		int rc = -1;
		auto out = h_.probes("", "", "", "", &rc);
		EXPECT_EQ(rc, 0);
		return out;
	}

	template <typename Probe>
	int args(const Probe &p, std::vector<reported_arg> &out)
	{
		int rc = -1;
		for (auto &a : h_.args(p, &rc))
			out.push_back(std::move(a));
		return rc;
	}

	plugin_handle h_{DT_TCP_PLUGIN};
	const dt_plugin_ops_t *ops_ = nullptr;
};

TEST_F(TcpPlugin, DescribesItself)
{
	EXPECT_STREQ(ops_->name, "tcp");
	EXPECT_EQ(ops_->priv, DT_PRIV_USER);
	ASSERT_NE(ops_->kmod, nullptr); // the kernel half, plugins/tcp/kernel
	EXPECT_STREQ(ops_->kmod->module, "dtrace_tcp");
	ASSERT_NE(ops_->bpf, nullptr); // attach descriptions: *_bpf_test.cc
	EXPECT_NE(ops_->bpf->attach, nullptr);
	EXPECT_EQ(ops_->attr.name.klass, DT_CLASS_ISA);
	EXPECT_EQ(ops_->attr.mod.name, DT_STABILITY_PRIVATE);
}

TEST_F(TcpPlugin, CookiesIndexTheTable)
{
	auto all = probes();
	ASSERT_EQ(all.size(), std::size(k_names));
	for (size_t i = 0; i < all.size(); i++) {
		EXPECT_EQ(all[i].provider, "tcp");
		EXPECT_EQ(all[i].mod, "vmlinux");
		EXPECT_EQ(all[i].func, "");
		EXPECT_EQ(all[i].name, k_names[i]);
		EXPECT_EQ(all[i].cookie, i);
	}
}

TEST_F(TcpPlugin, SegmentProbesHaveLinuxNativeTypes)
{
	auto all = probes();
	ASSERT_EQ(all.size(), 8u);
	// The same for every probe (a clause naming several is compiled once).
	const std::vector<std::string> natives = {"struct sk_buff *", "struct sock *",
						  "struct sk_buff *", "struct tcp_sock *",
						  "struct sk_buff *"};
	for (size_t i = 0; i < 7; i++) {
		std::vector<reported_arg> a;
		ASSERT_EQ(args(all[i], a), 0) << all[i].name;
		ASSERT_EQ(a.size(), natives.size()) << all[i].name;
		for (size_t j = 0; j < a.size(); j++) {
			EXPECT_EQ(a[j].ndx, static_cast<int32_t>(j));
			EXPECT_EQ(a[j].mapping, static_cast<int32_t>(j));
			EXPECT_EQ(a[j].native, natives[j]) << all[i].name;
		}
	}
}

TEST_F(TcpPlugin, StateChangeNativeTypes)
{
	auto all = probes();
	ASSERT_EQ(all.size(), 8u);
	std::vector<reported_arg> a;
	ASSERT_EQ(args(all[7], a), 0);
	ASSERT_EQ(a.size(), 6u);
	EXPECT_EQ(a[0].native, "void");
	EXPECT_EQ(a[1].native, "struct sock *");
	EXPECT_EQ(a[3].native, "struct tcp_sock *");
	EXPECT_EQ(a[5].native, "int");
	EXPECT_EQ(a[5].xlate, "tcplsinfo_t *");
	EXPECT_EQ(a[5].mapping, 5);
}

// fires(): the table's raw tracepoint where there is one (the bpf engine
// only: no kernel half), else none; no flow, no errno.
TEST_F(TcpPlugin, FiresOnTheTablesTracepoints)
{
	auto all = probes();
	ASSERT_EQ(all.size(), std::size(k_names));
	for (size_t i = 0; i < all.size(); i++) {
		dt_probe_fire_t f;
		ASSERT_EQ(h_.fires(all[i], f), 0) << k_names[i];
		if (k_events[i] != nullptr) {
			EXPECT_EQ(f.kind, DT_FIRE_RAW_TRACEPOINT) << k_names[i];
			ASSERT_NE(f.target, nullptr);
			EXPECT_STREQ(f.target, k_events[i]);
			EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_BPF | DT_ENGINE_KMOD})
				<< k_names[i];
		} else {
			EXPECT_EQ(f.kind, DT_FIRE_NONE) << k_names[i];
			EXPECT_EQ(f.engines, 0u) << k_names[i];
		}
		EXPECT_EQ(f.flow, DT_FLOW_NONE);
		EXPECT_EQ(f.errno_src, DT_ERRNO_NONE);
	}
}

TEST_F(TcpPlugin, RefusesAProbeItDidNotReport)
{
	std::vector<reported_arg> a;
	dt_probe_info_t bogus = {sizeof(bogus), "tcp", "vmlinux", "", "send", 8};
	EXPECT_EQ(args(bogus, a), -ENOENT);
	EXPECT_TRUE(a.empty());
}

} // namespace
