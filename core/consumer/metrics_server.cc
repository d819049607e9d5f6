// SPDX-License-Identifier: MIT
//
// consumer/metrics_server.cc - dt::metrics_server (dtrace/metrics.hpp):
// Poco::Net::HTTPServer on its own thread pool answers GET /metrics with
// the text consumer::metrics() made on the consumer's thread.
//
//   HTTP thread                          consumer's thread (serve())
//   ticket = ++asked, want[format]  ──►  asked > answered: take want,
//   wait until answered >= ticket        make each wanted text (no lock
//   (or k_scrape_wait: 503)              held: the consumer is its own),
//   answer text[format]             ◄──  answered = asked, notify
//
// Content negotiation: OpenMetrics 1.0 when the Accept header names
// application/openmetrics-text (Prometheus does), else text 0.0.4.
#include <dtrace/consumer.hpp>
#include <dtrace/error.hpp>
#include <dtrace/metrics.hpp>

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/ThreadPool.h>
#include <signal.h>

#include <array>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <ostream>

namespace dt {

namespace {

constexpr const char *k_bad_address =
	"Invalid value for specified option (ADDRESS:PORT, e.g. 127.0.0.1:9464)";

constexpr const char *k_content_type[] = {
	"text/plain; version=0.0.4; charset=utf-8",
	"application/openmetrics-text; version=1.0.0; charset=utf-8",
};

} // namespace

metrics_address parse_metrics_address(const std::string &v)
{
	size_t colon = v.rfind(':');
	if (colon == std::string::npos)
		throw error(errc::usage, k_bad_address);
	std::string host = v.substr(0, colon), port = v.substr(colon + 1);
	if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
		host = host.substr(1, host.size() - 2);
	else if (host.find_first_of("[]:") != std::string::npos)
		throw error(errc::usage, k_bad_address); // an IPv6 address wants [ ]
	if (port.empty() || port.size() > 5 ||
	    port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535)
		throw error(errc::usage, k_bad_address);
	return {host, static_cast<uint16_t>(std::stoul(port))};
}

namespace {

// What the HTTP threads and the consumer's thread share.
struct scrapes {
	std::mutex mu;
	std::condition_variable cv;
	uint64_t asked = 0, answered = 0;  // scrape tickets
	std::array<bool, 2> want{};	   // formats asked since the last serve()
	std::array<std::string, 2> text{}; // by format: 0 text 0.0.4, 1 OpenMetrics
	bool stopping = false;

	// On an HTTP thread: the text of format om, or nullopt (stopping, or
	// the consumer did not answer in time).
	std::optional<std::string> scrape(bool om)
	{
		std::unique_lock<std::mutex> l(mu);
		uint64_t ticket = ++asked;
		want[om] = true;
		cv.wait_for(l, metrics_server::k_scrape_wait,
			    [&] { return answered >= ticket || stopping; });
		if (answered < ticket)
			return std::nullopt;
		return text[om];
	}
};

} // namespace

struct metrics_server::impl {
	scrapes s;
	// The pool before the server: the server's threads are the pool's,
	// and the pool joins them once the server is gone.
	Poco::ThreadPool pool{1, 4};
	std::unique_ptr<Poco::Net::HTTPServer> server;
	std::string address;
};

namespace {

class handler final : public Poco::Net::HTTPRequestHandler {
public:
	explicit handler(scrapes &m) : m_(m) {}

	void handleRequest(Poco::Net::HTTPServerRequest &req,
			   Poco::Net::HTTPServerResponse &resp) override
	{
		using status = Poco::Net::HTTPResponse::HTTPStatus;
		bool head = req.getMethod() == Poco::Net::HTTPRequest::HTTP_HEAD;
		std::string path = req.getURI().substr(0, req.getURI().find('?'));
		if (path != "/metrics")
			return reply(resp, status::HTTP_NOT_FOUND, "text/plain; charset=utf-8",
				     "dtrace serves its aggregations at /metrics\n", head);
		if (!head && req.getMethod() != Poco::Net::HTTPRequest::HTTP_GET) {
			resp.set("Allow", "GET, HEAD");
			return reply(resp, status::HTTP_METHOD_NOT_ALLOWED,
				     "text/plain; charset=utf-8", "GET /metrics\n", head);
		}
		bool om = req.get("Accept", "").find("application/openmetrics-text") !=
			  std::string::npos;
		std::optional<std::string> body = m_.scrape(om);
		if (!body)
			return reply(resp, status::HTTP_SERVICE_UNAVAILABLE,
				     "text/plain; charset=utf-8",
				     "dtrace: tracing has stopped or its consumer is busy\n", head);
		reply(resp, status::HTTP_OK, k_content_type[om], *body, head);
	}

private:
	static void reply(Poco::Net::HTTPServerResponse &resp,
			  Poco::Net::HTTPResponse::HTTPStatus st, const std::string &type,
			  const std::string &body, bool head)
	{
		resp.setStatus(st);
		resp.setContentType(type);
		resp.setContentLength(static_cast<std::streamsize>(body.size()));
		std::ostream &os = resp.send();
		if (!head)
			os << body;
	}

	scrapes &m_;
};

class factory final : public Poco::Net::HTTPRequestHandlerFactory {
public:
	explicit factory(scrapes &m) : m_(m) {}
	Poco::Net::HTTPRequestHandler *createRequestHandler(
		const Poco::Net::HTTPServerRequest &) override
	{
		return new handler(m_);
	}

private:
	scrapes &m_;
};

// Blocks the signals dtrace(1)'s own thread handles while it lives: the
// threads created meanwhile (and the ones they create) inherit the mask.
class signals_blocked {
public:
	signals_blocked()
	{
		sigset_t s;
		sigemptyset(&s);
		for (int sig : {SIGINT, SIGTERM, SIGCHLD, SIGPIPE})
			sigaddset(&s, sig);
		pthread_sigmask(SIG_BLOCK, &s, &old_);
	}
	~signals_blocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
	signals_blocked(const signals_blocked &) = delete;
	signals_blocked &operator=(const signals_blocked &) = delete;

private:
	sigset_t old_;
};

} // namespace

metrics_server::metrics_server(const metrics_address &addr) : impl_(std::make_unique<impl>())
{
	std::string where =
		(addr.host.find(':') != std::string::npos ? "[" + addr.host + "]" : addr.host) +
		":" + std::to_string(addr.port);
	try {
		signals_blocked blocked;
		Poco::Net::SocketAddress sa(addr.host.empty() ? "0.0.0.0" : addr.host, addr.port);
		Poco::Net::ServerSocket sock;
		// SO_REUSEADDR, not SO_REUSEPORT: a second dtrace on the same
		// port must fail, not share it.
		if (sa.family() == Poco::Net::SocketAddress::IPv6)
			sock.bind6(sa, true, false, true);
		else
			sock.bind(sa, true, false);
		sock.listen(64);
		auto *params = new Poco::Net::HTTPServerParams;
		params->setMaxThreads(2);
		params->setMaxQueued(16);
		params->setTimeout(Poco::Timespan(10, 0));
		params->setServerName("dtrace");
		impl_->server = std::make_unique<Poco::Net::HTTPServer>(new factory(impl_->s),
									impl_->pool, sock, params);
		impl_->server->start();
		impl_->address = sock.address().toString();
	} catch (const Poco::Exception &e) {
		std::string why = e.message().empty() ? e.displayText() : e.message();
		throw error(errc::io, "cannot serve metrics at " + where + ": " + why);
	}
}

metrics_server::~metrics_server()
{
	{
		std::lock_guard<std::mutex> l(impl_->s.mu);
		impl_->s.stopping = true;
	}
	impl_->s.cv.notify_all();
	try {
		impl_->server->stopAll(true);
		impl_->server.reset();
		impl_->pool.joinAll();
	} catch (const Poco::Exception &) {
		// Stopping: nothing more is served either way.
	}
}

std::string metrics_server::address() const
{
	return impl_->address;
}

void metrics_server::serve(consumer &c)
{
	scrapes &s = impl_->s;
	std::array<bool, 2> want{};
	uint64_t upto;
	{
		std::lock_guard<std::mutex> l(s.mu);
		if (s.answered == s.asked)
			return;
		upto = s.asked;
		want = s.want;
		s.want = {};
	}
	std::array<std::string, 2> text;
	for (size_t f = 0; f < 2; f++)
		if (want[f])
			text[f] = c.metrics(f == 1);
	{
		std::lock_guard<std::mutex> l(s.mu);
		for (size_t f = 0; f < 2; f++)
			if (want[f])
				s.text[f] = std::move(text[f]);
		s.answered = upto;
	}
	s.cv.notify_all();
}

} // namespace dt
