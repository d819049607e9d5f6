// SPDX-License-Identifier: MIT
// The principal buffer's consumer side (see ring.hpp).
#include "ring.hpp"

#include "fd.hpp"

#include <bpf/libbpf.h>

extern "C" {
#include "abi/dt_bpf_abi.h"
}

#include <cerrno>
#include <cstring>
#include <optional>
#include <span>
#include <utility>

namespace dt::engines::bpf {

ring_reader::ring_reader(int ring_fd, uint64_t cap, std::function<bool(uint32_t)> is_error_epid)
	: cap_(cap), is_error_epid_(std::move(is_error_epid))
{
	rb_ = ring_buffer__new(ring_fd, &ring_reader::on_sample, this, nullptr);
	if (rb_ == nullptr)
		throw engine_error("bpf engine: cannot map the ring buffer: " + errno_text(errno));
}

ring_reader::~ring_reader()
{
	ring_buffer__free(rb_);
}

int ring_reader::on_sample(void *ctx, void *data, size_t size)
{
	auto *self = static_cast<ring_reader *>(ctx);
	if (size < sizeof(dt_bpf_sample)) {
		self->malformed_++;
		return 0;
	}
	dt_bpf_sample h{};
	std::memcpy(&h, data, sizeof(h));
	size_t body = size - sizeof(h);
	if (h.kind == DT_BPF_SAMPLE_SPEC || h.kind == DT_BPF_SAMPLE_SPEC_END) {
		self->on_spec(h.kind, static_cast<const uint8_t *>(data), size);
		return 0;
	}
	if (h.kind == DT_BPF_SAMPLE_FIRING && self->held_bytes_ + body > self->cap_) {
		self->drops_[h.cpu]++;
		return 0;
	}
	self->hold(h.cpu, h.kind, static_cast<const uint8_t *>(data) + sizeof(h), body);
	return 0;
}

void ring_reader::hold(uint32_t cpu, uint32_t kind, const uint8_t *p, size_t n)
{
	sample s;
	s.cpu = cpu;
	s.kind = kind;
	s.off = arena_.size();
	s.size = n;
	arena_.insert(arena_.end(), p, p + n);
	held_bytes_ += n;
	pending_.push_back(s);
}

// A firing for the principal buffer (from a commit()): held as if the ring
// had given it, or a principal drop when there is no room.
void ring_reader::hold_firing(uint32_t cpu, const uint8_t *p, size_t n)
{
	if (held_bytes_ + n > cap_) {
		drops_[cpu]++;
		return;
	}
	hold(cpu, DT_BPF_SAMPLE_FIRING, p, n);
}

// SPEC: header, firing, struct dt_bpf_spec_tag. SPEC_END: header, struct
// dt_bpf_spec_end.
void ring_reader::on_spec(uint32_t kind, const uint8_t *p, size_t n)
{
	dt_bpf_sample h{};
	std::memcpy(&h, p, sizeof(h));
	std::vector<spec_buffer::firing_bytes> out;
	if (kind == DT_BPF_SAMPLE_SPEC) {
		if (n < sizeof(h) + sizeof(dtrace_rechdr_t) + sizeof(dt_bpf_spec_tag)) {
			malformed_++;
			return;
		}
		dt_bpf_spec_tag t{};
		std::memcpy(&t, p + n - sizeof(t), sizeof(t));
		spec_buffer::firing_bytes f;
		f.cpu = h.cpu;
		f.bytes.assign(p + sizeof(h), p + n - sizeof(t));
		spec_.firing(t.id, t.gen, std::move(f), out);
	} else {
		if (n < sizeof(h) + sizeof(dt_bpf_spec_end)) {
			malformed_++;
			return;
		}
		dt_bpf_spec_end e{};
		std::memcpy(&e, p + sizeof(h), sizeof(e));
		spec_.end(e.id, e.gen, e.commit != 0, out);
	}
	for (const spec_buffer::firing_bytes &f : out)
		hold_firing(f.cpu, f.bytes.data(), f.bytes.size());
}

int ring_reader::collect()
{
	return ring_buffer__consume(rb_);
}

int ring_reader::poll(int timeout_ms)
{
	int n = ring_buffer__poll(rb_, timeout_ms);
	if (n == -EINTR)
		return n;
	return collect();
}

void ring_reader::deliver(engine_sink &sink)
{
	std::map<uint32_t, std::optional<fault_report>> held; // by CPU
	auto flush = [&](uint32_t cpu) {
		auto it = held.find(cpu);
		if (it != held.end() && it->second) {
			sink.fault(*it->second);
			it->second.reset();
		}
	};
	for (const sample &s : pending_) {
		std::span<const uint8_t> bytes(arena_.data() + s.off, s.size);
		if (s.kind == DT_BPF_SAMPLE_FAULT) {
			if (bytes.size() < sizeof(dt_bpf_fault_sample)) {
				malformed_++;
				continue;
			}
			dt_bpf_fault_sample f{};
			std::memcpy(&f, bytes.data(), sizeof(f));
			flush(s.cpu);
			fault_report r;
			r.epid = f.epid;
			r.action = f.action;
			r.offset = f.offset;
			r.code = static_cast<uint16_t>(f.code);
			r.illval = f.illval;
			held[s.cpu] = r;
		} else if (s.kind == DT_BPF_SAMPLE_FIRING) {
			if (bytes.size() < sizeof(dtrace_rechdr_t)) {
				malformed_++;
				continue;
			}
			uint32_t epid = 0;
			std::memcpy(&epid, bytes.data(), sizeof(epid));
			if (!is_error_epid_ || !is_error_epid_(epid))
				flush(s.cpu);
			sink.records(bytes, s.cpu);
		} else {
			malformed_++;
		}
	}
	for (auto &[cpu, f] : held)
		if (f)
			sink.fault(*f);
	pending_.clear();
	arena_.clear();
	held_bytes_ = 0;
}

std::map<uint32_t, uint64_t> ring_reader::take_drops()
{
	return std::exchange(drops_, {});
}

} // namespace dt::engines::bpf
