// SPDX-License-Identifier: MIT
//
// metrics_test.cc - -x metrics (dtrace/metrics.hpp, docs/metrics.md): the
// aggregations as Prometheus text 0.0.4 and OpenMetrics 1.0 (exact text
// for hand-made deltas: counters, gauges, the three quantizations as
// cumulative histograms, label escaping), the address option, and the
// HTTP server answering scrapes from the consumer's thread.
#include "harness.hpp"

#include <dtrace/error.hpp>
#include <dtrace/metrics.hpp>

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace {

using namespace dt;
using namespace dt::test;

using metrics_fixture = agg_consumer;

std::vector<uint8_t> str_key(const std::string &s, uint32_t size = 32)
{
	return key_builder().add_str(s, size).k;
}

// @[execname] = count() and @bytes[pid, execname] = sum(): counters, keys
// as labels; '"', '\\', newline escaped, bytes that are not UTF-8 replaced.
TEST(Metrics, CountersWithKeyLabels)
{
	metrics_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_COUNT, {string_type(32)}));
	f.prog.aggregations.push_back(
		make_agg(2, "bytes", DTRACEAGG_SUM, {int_type(4), string_type(16)}));
	f.start();
	f.put(1, str_key("bash"), {2});
	f.put(1, str_key("a\"b\\c\nd"), {1});
	f.put(1, str_key("caf\xc3\xa9\xff"), {4});
	f.put(1, str_key("bash"), {3});
	f.put(2, key_builder().add(int32_t{-12}).add_str("sshd", 16).k, {-40});
	EXPECT_EQ(f.c->metrics(false),
		  "# HELP dtrace_anon_total DTrace aggregation @ = count() by key0..key0\n"
		  "# TYPE dtrace_anon_total counter\n"
		  "dtrace_anon_total{key0=\"a\\\"b\\\\c\\nd\"} 1\n"
		  "dtrace_anon_total{key0=\"bash\"} 5\n"
		  "dtrace_anon_total{key0=\"caf\xc3\xa9\xef\xbf\xbd\"} 4\n"
		  "# HELP dtrace_bytes_total DTrace aggregation @bytes = sum() by key0..key1\n"
		  "# TYPE dtrace_bytes_total counter\n"
		  "dtrace_bytes_total{key0=\"-12\",key1=\"sshd\"} -40\n");
	// OpenMetrics: HELP and TYPE name the family, the text ends "# EOF".
	EXPECT_EQ(f.c->metrics(true),
		  "# HELP dtrace_anon DTrace aggregation @ = count() by key0..key0\n"
		  "# TYPE dtrace_anon counter\n"
		  "dtrace_anon_total{key0=\"a\\\"b\\\\c\\nd\"} 1\n"
		  "dtrace_anon_total{key0=\"bash\"} 5\n"
		  "dtrace_anon_total{key0=\"caf\xc3\xa9\xef\xbf\xbd\"} 4\n"
		  "# HELP dtrace_bytes DTrace aggregation @bytes = sum() by key0..key1\n"
		  "# TYPE dtrace_bytes counter\n"
		  "dtrace_bytes_total{key0=\"-12\",key1=\"sshd\"} -40\n"
		  "# EOF\n");
}

TEST(Metrics, GaugesAndEmptyAggregations)
{
	metrics_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "mn", DTRACEAGG_MIN, {}));
	f.prog.aggregations.push_back(make_agg(2, "mx", DTRACEAGG_MAX, {}));
	f.prog.aggregations.push_back(make_agg(3, "av", DTRACEAGG_AVG, {}, {}, 2));
	f.prog.aggregations.push_back(make_agg(4, "sd", DTRACEAGG_STDDEV, {}, {}, 4));
	f.prog.aggregations.push_back(make_agg(5, "none", DTRACEAGG_COUNT, {}));
	f.start();
	f.put(1, {}, {5});
	f.put(1, {}, {-7});
	f.put(2, {}, {9});
	f.put(3, {}, {2, 10});	      // 4 and 6
	f.put(3, {}, {1, 11});	      // and 11: 21 / 3
	f.put(3, {}, {1, 0});	      // and 0: 21 / 4, not rounded
	f.put(4, {}, {4, 10, 30, 0}); // 1 2 3 4
	EXPECT_EQ(f.c->metrics(false),
		  "# HELP dtrace_mn DTrace aggregation @mn = min()\n"
		  "# TYPE dtrace_mn gauge\n"
		  "dtrace_mn -7\n"
		  "# HELP dtrace_mx DTrace aggregation @mx = max()\n"
		  "# TYPE dtrace_mx gauge\n"
		  "dtrace_mx 9\n"
		  "# HELP dtrace_av DTrace aggregation @av = avg()\n"
		  "# TYPE dtrace_av gauge\n"
		  "dtrace_av 5.25\n"
		  "# HELP dtrace_sd DTrace aggregation @sd = stddev()\n"
		  "# TYPE dtrace_sd gauge\n"
		  "dtrace_sd 1\n"
		  "# HELP dtrace_none_total DTrace aggregation @none = count()\n"
		  "# TYPE dtrace_none_total counter\n");
}

// quantize(): power-of-two buckets; le is the largest value each holds
// (1: 1, 2..3: 3, 4..7: 7), cumulative, from the empty bucket below the
// data to the last with data; _sum weighs each bucket by its value as dtrace prints it.
TEST(Metrics, QuantizeIsAHistogram)
{
	metrics_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "q", DTRACEAGG_QUANTIZE, {int_type(8)}, {}, DTRACE_QUANTIZE_NBUCKETS));
	f.start();
	std::vector<int64_t> v(DTRACE_QUANTIZE_NBUCKETS, 0);
	v[DTRACE_QUANTIZE_ZEROBUCKET - 2] = 1; // -3..-2
	v[DTRACE_QUANTIZE_ZEROBUCKET + 1] = 2; // 1
	v[DTRACE_QUANTIZE_ZEROBUCKET + 3] = 3; // 4..7
	f.put(1, key_builder().add(int64_t{7}).k, v);
	EXPECT_EQ(f.c->metrics(false),
		  "# HELP dtrace_q DTrace aggregation @q = quantize() by key0..key0\n"
		  "# TYPE dtrace_q histogram\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"-4\"} 0\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"-2\"} 1\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"-1\"} 1\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"0\"} 1\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"1\"} 3\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"3\"} 3\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"7\"} 6\n"
		  "dtrace_q_bucket{key0=\"7\",le=\"+Inf\"} 6\n"
		  "dtrace_q_sum{key0=\"7\"} 12\n"
		  "dtrace_q_count{key0=\"7\"} 6\n");
}

// lquantize(x, 0, 10, 2): the underflow bucket holds up to -1, each step
// up to base + step - 1; the overflow bucket counts only in +Inf.
TEST(Metrics, LquantizeBuckets)
{
	metrics_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "l", DTRACEAGG_LQUANTIZE, {}, {0, 10, 2}, 7));
	f.start();
	f.put(1, {}, {1, 0, 0, 3, 0, 0, 2});
	EXPECT_EQ(f.c->metrics(false),
		  "# HELP dtrace_l DTrace aggregation @l = lquantize(value, 0, 10, 2)\n"
		  "# TYPE dtrace_l histogram\n"
		  "dtrace_l_bucket{le=\"-1\"} 1\n"
		  "dtrace_l_bucket{le=\"1\"} 1\n"
		  "dtrace_l_bucket{le=\"3\"} 1\n"
		  "dtrace_l_bucket{le=\"5\"} 4\n"
		  "dtrace_l_bucket{le=\"7\"} 4\n"
		  "dtrace_l_bucket{le=\"9\"} 4\n"
		  "dtrace_l_bucket{le=\"+Inf\"} 6\n"
		  "dtrace_l_sum 31\n"
		  "dtrace_l_count 6\n");
}

// llquantize(x, 10, 0, 2, 10): 1..9 one by one, then 10..19 ... 90..99;
// a value of 3 and two of 70..79.
TEST(Metrics, LlquantizeBuckets)
{
	metrics_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "ll", DTRACEAGG_LLQUANTIZE, {}, {10, 0, 2, 10}, 29));
	f.start();
	std::vector<int64_t> v(29, 0);
	v[3] = 1;
	v[16] = 2;
	f.put(1, {}, v);
	std::string want = "# HELP dtrace_ll DTrace aggregation @ll = llquantize(value, 10, 0, "
			   "2, 10)\n# TYPE dtrace_ll histogram\ndtrace_ll_bucket{le=\"2\"} 0\n";
	for (const char *le :
	     {"3", "4", "5", "6", "7", "8", "9", "19", "29", "39", "49", "59", "69"})
		want += std::string("dtrace_ll_bucket{le=\"") + le + "\"} 1\n";
	want += "dtrace_ll_bucket{le=\"79\"} 3\n"
		"dtrace_ll_bucket{le=\"+Inf\"} 3\n"
		"dtrace_ll_sum 143\n"
		"dtrace_ll_count 3\n";
	EXPECT_EQ(f.c->metrics(false), want);
}

TEST(Metrics, Addresses)
{
	metrics_address a = parse_metrics_address("127.0.0.1:9464");
	EXPECT_EQ(a.host, "127.0.0.1");
	EXPECT_EQ(a.port, 9464);
	a = parse_metrics_address("[::1]:0");
	EXPECT_EQ(a.host, "::1");
	EXPECT_EQ(a.port, 0);
	a = parse_metrics_address(":65535");
	EXPECT_EQ(a.host, "");
	EXPECT_EQ(a.port, 65535);
	for (const char *bad : {"", "9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536",
				"127.0.0.1:-1", "127.0.0.1:http", "::1:9464", "host:12x"}) {
		try {
			(void)parse_metrics_address(bad);
			ADD_FAILURE() << "accepted '" << bad << "'";
		} catch (const error &e) {
			EXPECT_EQ(e.code(), errc::usage);
			EXPECT_STREQ(e.what(), "Invalid value for specified option (ADDRESS:PORT, "
					       "e.g. 127.0.0.1:9464)");
		}
	}
}

struct http_reply {
	int status = 0;
	std::string type, body;
};

http_reply get(uint16_t port, const std::string &path, const std::string &accept = {})
{
	Poco::Net::HTTPClientSession s("127.0.0.1", port);
	Poco::Net::HTTPRequest req(Poco::Net::HTTPRequest::HTTP_GET, path,
				   Poco::Net::HTTPMessage::HTTP_1_1);
	if (!accept.empty())
		req.set("Accept", accept);
	s.sendRequest(req);
	Poco::Net::HTTPResponse resp;
	std::istream &is = s.receiveResponse(resp);
	http_reply r;
	r.status = resp.getStatus();
	r.type = resp.getContentType();
	Poco::StreamCopier::copyToString(is, r.body);
	return r;
}

// A scrape is answered by serve() on the consumer's thread, with the text
// of that moment; a second server cannot take the same port.
TEST(Metrics, ServerAnswersFromTheConsumerThread)
{
	metrics_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "n", DTRACEAGG_COUNT, {}));
	f.start();
	f.put(1, {}, {3});
	metrics_server srv(parse_metrics_address("127.0.0.1:0"));
	std::string addr = srv.address();
	ASSERT_EQ(addr.rfind("127.0.0.1:", 0), 0u) << addr;
	auto port = static_cast<uint16_t>(std::stoi(addr.substr(addr.find(':') + 1)));
	ASSERT_NE(port, 0);

	std::atomic<bool> done{false};
	http_reply text, om, missing;
	std::thread scraper([&] {
		text = get(port, "/metrics");
		om = get(
			port, "/metrics",
			"application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5");
		missing = get(port, "/");
		done = true;
	});
	while (!done) {
		srv.serve(*f.c);
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
	}
	scraper.join();
	EXPECT_EQ(text.status, 200);
	EXPECT_EQ(text.type, "text/plain; version=0.0.4; charset=utf-8");
	EXPECT_EQ(text.body, "# HELP dtrace_n_total DTrace aggregation @n = count()\n"
			     "# TYPE dtrace_n_total counter\n"
			     "dtrace_n_total 3\n");
	EXPECT_EQ(om.status, 200);
	EXPECT_EQ(om.type, "application/openmetrics-text; version=1.0.0; charset=utf-8");
	EXPECT_EQ(om.body.substr(om.body.size() - 6), "# EOF\n");
	EXPECT_EQ(missing.status, 404);

	try {
		metrics_server again(parse_metrics_address(addr));
		ADD_FAILURE() << "a second server listens at " << addr;
	} catch (const error &e) {
		EXPECT_EQ(e.code(), errc::io);
		EXPECT_EQ(std::string(e.what()).rfind("cannot serve metrics at " + addr + ": ", 0),
			  0u)
			<< e.what();
	}
}

} // namespace
