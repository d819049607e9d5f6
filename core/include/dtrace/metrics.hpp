// SPDX-License-Identifier: MIT
//
// dtrace/metrics.hpp - `-x metrics=ADDRESS:PORT`: the aggregations served
// at /metrics in Prometheus' text exposition format (or OpenMetrics 1.0
// when the scraper asks for it), for Prometheus, an OpenTelemetry
// collector or anything that scrapes a fleet (docs/metrics.md).
//
//   scraper ─GET /metrics─► HTTP thread (Poco::Net::HTTPServer)
//                               │ asks, waits (at most k_scrape_wait)
//                               ▼
//   dtrace(1)'s loop: s.work(cons); server.serve(cons)
//                               │ on the consumer's thread, between two
//                               ▼ drains: one consistent snapshot
//                   consumer::metrics(openmetrics) ─► the text, answered
//
// The consumer's aggregations change only on its own thread (merges,
// clear(), trunc(), normalize()), so the text is made there, between two
// work() rounds, when every delta of the engine's last snapshot has been
// merged: a scrape never sees half a snapshot. A scrape is answered at
// the loop's next round (within switchrate, 1s by default).
//
// Nothing here prints; failures are dt::error with DTrace's message.
#pragma once

#include <dtrace/api.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

DT_API_BEGIN

namespace dt {

class consumer;

// A parsed -x metrics value: "HOST:PORT", "[V6ADDR]:PORT" or ":PORT" (every
// IPv4 interface); PORT 0 takes a free port.
struct metrics_address {
	std::string host; // as given ("" for every interface)
	uint16_t port = 0;
};

// Throws dt::error (errc::usage) "Invalid value for specified option
// (ADDRESS:PORT, e.g. 127.0.0.1:9464)" when v does not read as one.
[[nodiscard]] metrics_address parse_metrics_address(const std::string &v);

class metrics_server {
public:
	// How long a scrape waits for the consumer's thread before it is
	// answered 503.
	static constexpr std::chrono::seconds k_scrape_wait{10};

	// Listens at once (threads with SIGINT, SIGTERM and SIGCHLD blocked:
	// dtrace(1)'s own thread takes them). Throws dt::error (errc::io)
	// "cannot serve metrics at ADDR: why" when it cannot listen.
	explicit metrics_server(const metrics_address &addr);
	// Stops listening; scrapes still waiting are answered 503.
	~metrics_server();
	metrics_server(const metrics_server &) = delete;
	metrics_server &operator=(const metrics_server &) = delete;

	// Where it listens, as HOST:PORT with the port bound (PORT 0 resolved).
	[[nodiscard]] std::string address() const;
	// On the consumer's thread, between two work() rounds: answer every
	// scrape waiting, from c's aggregations. Cheap when none waits.
	void serve(consumer &c);

private:
	struct impl;
	std::unique_ptr<impl> impl_;
};

} // namespace dt

DT_API_END
