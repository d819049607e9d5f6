// SPDX-License-Identifier: MIT
// The built-in dtrace provider's bpf engine hook, through the registry as
// the engine asks it: BEGIN, END and ERROR are fired by the consumer.
#include <dtrace/provider.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

namespace {

TEST(DtraceProviderBpf, BeginEndErrorAreFiredByTheConsumer)
{
	std::string warnings;
	dt::provider_registry reg({}, {}, [&](const std::string &w) { warnings += w + "\n"; });
	auto probes = reg.match({"dtrace", "", "", ""});
	ASSERT_EQ(probes.size(), 3u);
	for (const dt::probe *p : probes) {
		dt_bpf_attach_t a;
		std::string why;
		ASSERT_EQ(reg.bpf_attach(*p, a, why), 0) << p->desc.name << ": " << why;
		EXPECT_EQ(a.sz, sizeof(a));
		EXPECT_EQ(a.kind, DT_BPF_ATTACH_CONSUMER) << p->desc.name;
		EXPECT_EQ(a.target, nullptr);
		EXPECT_EQ(a.has_filter, 0);
		EXPECT_TRUE(why.empty()) << why;
	}
	ASSERT_NE(probes[0]->prov->ops().bpf, nullptr);
	EXPECT_NE(probes[0]->prov->ops().bpf->attach, nullptr);
	EXPECT_TRUE(warnings.empty()) << warnings;
}

} // namespace
