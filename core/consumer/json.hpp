// SPDX-License-Identifier: MIT
//
// consumer/json.hpp - `-x oformat=json`: the consumer's records as JSON
// Lines, one document per record (docs/json.md is the schema). The
// consumer calls this layer where the text layout would print:
//
//   consume_records()  begin_firing() ─► one item per action ─► end_firing()
//                      {"type":"probe", "cpu", "id", "provider", ... "output":[...]}
//   printa() at exit   aggregation()  {"type":"aggregation", "aggregation-name", ...}
//   fault()            fault()        {"type":"error", "fault", "address", probe ...}
//   drops()            drop()         {"type":"drop", "kind", "count", ...}
//   finish()           end()          {"type":"end", "status"}
//
// Field names are FreeBSD's (dtrace(1) STRUCTURED OUTPUT, libxo) where it
// has one: timestamp, cpu, id, provider, module, function, name, output,
// value, message, stack-frames, ustack-frames, aggregation-name,
// aggregation-data, keys, buckets. Documents are built with Poco::JSON
// (its writer escapes), strings made valid UTF-8 first (utf8_valid()).
#pragma once

#include "internal.hpp"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace dt::consumer_impl {

// s with every byte that does not begin a well-formed UTF-8 sequence (an
// invalid lead or continuation byte, a truncated, overlong or surrogate
// sequence, or a code point above U+10FFFF) replaced by U+FFFD, one
// replacement per byte dropped.
[[nodiscard]] std::string utf8_valid(std::string_view s);

class json_out {
public:
	explicit json_out(state &st);
	~json_out();
	json_out(const json_out &) = delete;
	json_out &operator=(const json_out &) = delete;

	// A firing: its probe, then what its actions output, then the line
	// (not written when nothing was output and quiet is set).
	void begin_firing(const enabled_probe &ep, uint32_t cpu, uint64_t timestamp);
	void end_firing(bool quiet);

	// Items of the firing being built.
	void trace(const datum &d); // trace(), stack(), sym() ...
	void printf(const std::string &message, std::span<const datum> args); // printf()
	void print(const datum &d, const value_type &t);		      // print(): typed
	void tracemem(const uint8_t *p, size_t n);
	void system(const std::string &command);
	// printa(): the aggregations' data; message: the formatted text of
	// printa(fmt, ...) (nullptr without a format).
	void printa(const std::vector<uint32_t> &ids, const std::string *message);

	// Records of their own.
	void aggregation(uint32_t id); // one line: the aggregation's entries, sorted
	void fault(const fault_report &f, const std::string &message);
	void drop(std::string_view kind, uint64_t n, uint32_t cpu, const std::string &message);
	void end(int status);

private:
	struct impl;
	std::unique_ptr<impl> impl_;
};

} // namespace dt::consumer_impl
