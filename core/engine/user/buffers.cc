// SPDX-License-Identifier: MIT
// The user engine's principal buffer (see buffers.hpp): illumos
// dtrace_buffer_reserve()'s policies on an event list.
#include "buffers.hpp"

namespace dt::engines::user {

bool principal_buffer::reserve(uint64_t n, uint32_t cpu, bool is_end)
{
	switch (policy_) {
	case buf_policy::switch_:
		if (used_ + n <= size_)
			return true;
		break;
	case buf_policy::fill: {
		uint64_t limit = is_end ? size_ : (size_ > reserve_ ? size_ - reserve_ : 0);
		if ((!filled_ || is_end) && used_ + n <= limit)
			return true;
		filled_ = true;
		break;
	}
	case buf_policy::ring:
		if (n <= size_)
			return true;
		break;
	}
	drops_[cpu]++;
	return false;
}

bool principal_buffer::put(std::vector<uint8_t> bytes, uint32_t cpu, bool is_end)
{
	uint64_t n = bytes.size();
	switch (policy_) {
	case buf_policy::switch_:
		if (used_ + n > size_) {
			drops_[cpu]++;
			return false;
		}
		break;
	case buf_policy::fill: {
		uint64_t limit = is_end ? size_ : (size_ > reserve_ ? size_ - reserve_ : 0);
		if (filled_ && !is_end) {
			drops_[cpu]++;
			return false;
		}
		if (used_ + n > limit) {
			filled_ = true;
			drops_[cpu]++;
			return false;
		}
		break;
	}
	case buf_policy::ring:
		if (n > size_) {
			drops_[cpu]++;
			return false;
		}
		while (used_ + n > size_ && !events_.empty()) {
			used_ -= events_.front().bytes.size();
			events_.pop_front();
		}
		break;
	}
	used_ += n;
	events_.push_back({cpu, std::move(bytes), {}});
	return true;
}

void principal_buffer::put_fault(const fault_report &f, uint32_t cpu)
{
	events_.push_back({cpu, {}, f});
}

void principal_buffer::drain(engine_sink &sink, bool stopped)
{
	if (policy_ != buf_policy::switch_ && !stopped)
		return;
	// Consecutive firings of one CPU go to the sink as one buffer.
	std::vector<uint8_t> run;
	uint32_t run_cpu = 0;
	auto flush = [&] {
		if (!run.empty())
			sink.records(run, run_cpu);
		run.clear();
	};
	while (!events_.empty()) {
		buf_event e = std::move(events_.front());
		events_.pop_front();
		if (e.bytes.empty()) {
			flush();
			sink.fault(e.fault);
			continue;
		}
		if (!run.empty() && e.cpu != run_cpu)
			flush();
		run_cpu = e.cpu;
		run.insert(run.end(), e.bytes.begin(), e.bytes.end());
	}
	flush();
	used_ = 0;
	for (auto &[cpu, n] : drops_)
		if (n != 0)
			sink.drops("principal", n, cpu);
	drops_.clear();
}

} // namespace dt::engines::user
