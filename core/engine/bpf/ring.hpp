// SPDX-License-Identifier: MIT
//
// ring.hpp - the principal buffer: dt_ring (BPF ring buffer) consumed
// with libbpf's ring_buffer, samples as dt_bpf_abi.h defines them:
//
//   struct dt_bpf_sample {cpu, kind}
//     FIRING ─► the firing (rechdr + records) ─► sink.records(bytes, cpu)
//     FAULT  ─► struct dt_bpf_fault_sample    ─► sink.fault(report)
//
// Programs wake the consumer only once the ring is a quarter full
// (lib/emit.bpf.c dt_ring_flags), so the engine sleeps in epoll (poll())
// in slices while it waits, and collects what the ring holds at each
// wakeup and at the end of each slice; what it collects is held here, up
// to `cap` bytes (bufsize), beyond which firings are dropped and counted
// as principal drops of their CPU. Once a quarter of `cap` is held
// (wants_drain) the engine's wait ends, so that the caller drains it at
// once rather than at switchrate: a burst is limited by how fast the
// consumer prints, not by bufsize per switchrate. (A quarter, not a half:
// the three quarters left absorb the consumer's wakeup latency on a busy
// CPU; with half, 10^6 printf firings on a loaded machine lost ~0.1% in
// 3 runs of 8, with a quarter none in 16.)
//
// Order: samples are delivered in ring order (the order programs committed
// them on all CPUs), except that a fault is held back behind the
// dtrace:::ERROR firings that follow it on its CPU, so that ERROR's output
// comes first and the fault message after, as on the other engines.
//
// Speculations (spec_buffer.hpp): SPEC samples are held per speculation
// and SPEC_END samples release (commit) or drop (discard) them; released
// firings join the principal buffer where the commit is.
#pragma once

#include "spec_buffer.hpp"

#include <dtrace/engine.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

struct ring_buffer;

namespace dt::engines::bpf {

class ring_reader {
public:
	// is_error_epid: is this EPID one of dtrace:::ERROR's ECBs?
	ring_reader(int ring_fd, uint64_t cap, std::function<bool(uint32_t)> is_error_epid);
	~ring_reader();
	ring_reader(const ring_reader &) = delete;
	ring_reader &operator=(const ring_reader &) = delete;

	// Move what the ring holds into this reader. Returns samples taken.
	int collect();
	// Sleep up to timeout_ms for a wakeup (a sample written with one), then
	// collect. -EINTR if a signal arrived.
	int poll(int timeout_ms);
	// Deliver everything collected.
	void deliver(engine_sink &sink);
	// Half of cap is held: time to deliver.
	[[nodiscard]] bool wants_drain() const { return held_bytes_ >= cap_ / 4; }
	// Firings dropped for want of room here since the last call, by CPU.
	[[nodiscard]] std::map<uint32_t, uint64_t> take_drops();
	// Speculations: specsize, and speculative drops since the last call.
	void set_specsize(uint64_t n) { spec_.set_specsize(n); }
	[[nodiscard]] std::map<uint32_t, uint64_t> take_spec_drops() { return spec_.take_drops(); }
	// Malformed samples seen (a bug elsewhere; for tests and debugging).
	[[nodiscard]] uint64_t malformed() const { return malformed_; }

private:
	// A held sample: its bytes after the dt_bpf_sample header are
	// arena_[off, off + size) (one buffer, reused from drain to drain:
	// no allocation per sample).
	struct sample {
		uint32_t cpu = 0;
		uint32_t kind = 0;
		size_t off = 0, size = 0;
	};
	static int on_sample(void *ctx, void *data, size_t size);
	void on_spec(uint32_t kind, const uint8_t *p, size_t n);
	void hold(uint32_t cpu, uint32_t kind, const uint8_t *p, size_t n);
	void hold_firing(uint32_t cpu, const uint8_t *p, size_t n);

	struct ring_buffer *rb_ = nullptr;
	uint64_t cap_;
	uint64_t held_bytes_ = 0;
	std::vector<sample> pending_;
	std::vector<uint8_t> arena_;
	std::map<uint32_t, uint64_t> drops_; // by CPU
	uint64_t malformed_ = 0;
	std::function<bool(uint32_t)> is_error_epid_;
	spec_buffer spec_;
};

} // namespace dt::engines::bpf
