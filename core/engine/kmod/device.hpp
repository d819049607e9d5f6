// SPDX-License-Identifier: MIT
//
// device.hpp - /dev/dtrace for the kmod engine: one open file is one
// consumer state in dtrace.ko (kmod/include/uapi/dtrace/ioctl.h). Thin,
// typed wrappers over the ioctls; each returns 0 or a positive errno and
// never throws. Closing (the destructor) makes the kernel disable and
// free everything this state enabled, so a consumer that dies mid-trace
// leaves nothing behind.
#pragma once

extern "C" {
#include <uapi/dtrace/ioctl.h>
}

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dt::kmod {

inline constexpr const char *k_device_path = "/dev/dtrace";

class device {
public:
	device() = default;
	~device();
	device(const device &) = delete;
	device &operator=(const device &) = delete;

	// Open /dev/dtrace read-write (close-on-exec); 0 or errno.
	int open(const char *path = k_device_path);
	[[nodiscard]] bool is_open() const { return fd_ >= 0; }
	void close();

	int conf(dtrace_conf_t &out) const;
	// The probe with this id (DTRACEIOC_PROBES asked from `id`, checked).
	int probe(uint32_t id, dtrace_probedesc_t &out) const;
	// The first probe >= d.dtpd_id matching d's fields (PROBEMATCH).
	int probematch(dtrace_probedesc_t &d) const;
	int probearg(dtrace_argdesc_t &a) const;
	// ENABLE the blob; on EINVAL/EOPNOTSUPP out.dten_errmsg says why.
	int enable(const std::vector<uint8_t> &blob, dtrace_enable_t &out) const;
	int eprobe(uint32_t epid, dtrace_eprobedesc_t &out) const;
	int go(uint32_t &cpu) const;
	int stop(uint32_t &cpu) const;
	int status(dtrace_status_t &out) const;
	// Switch and copy out one CPU's principal (agg: aggregation) buffer
	// into buf (its size is the capacity); d gets size, drops, errors.
	int snap(uint32_t cpu, std::vector<uint8_t> &buf, bool agg, dtrace_bufdesc_t &d) const;

private:
	int fd_ = -1;
	int ioc(unsigned long req, void *arg) const;
};

} // namespace dt::kmod
