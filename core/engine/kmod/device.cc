// SPDX-License-Identifier: MIT
// /dev/dtrace's ioctls for the kmod engine (see device.hpp).
#include "device.hpp"

extern "C" {
#include <uapi/dtrace/abi_sizes.h>
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/dif.h>
#include <uapi/dtrace/ioctl.h>
}

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>


// The structs we hand dtrace.ko have the sizes it was built for (its
// BUILD_BUG_ON()s check the same list, uapi/dtrace/abi_sizes.h).
#define DTRACE_ABI_CHECK(type, size) \
	static_assert(sizeof(type) == (size), #type " changed size: update the ABI");
DTRACE_ABI_SIZES(DTRACE_ABI_CHECK)
#undef DTRACE_ABI_CHECK

namespace dt::kmod {

device::~device()
{
	close();
}

int device::open(const char *path)
{
	close();
	int fd = ::open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno;
	fd_ = fd;
	return 0;
}

void device::close()
{
	if (fd_ >= 0)
		::close(fd_);
	fd_ = -1;
}

int device::ioc(unsigned long req, void *arg) const
{
	if (fd_ < 0)
		return EBADF;
	for (;;) {
		if (::ioctl(fd_, req, arg) == 0)
			return 0;
		if (errno != EINTR)
			return errno;
	}
}

int device::conf(dtrace_conf_t &out) const
{
	out = {};
	return ioc(DTRACEIOC_CONF, &out);
}

int device::probe(uint32_t id, dtrace_probedesc_t &out) const
{
	out = {};
	out.dtpd_id = id;
	int rc = ioc(DTRACEIOC_PROBES, &out);
	if (rc == 0 && out.dtpd_id != id)
		return ESRCH;
	return rc;
}

int device::probematch(dtrace_probedesc_t &d) const
{
	return ioc(DTRACEIOC_PROBEMATCH, &d);
}

int device::probearg(dtrace_argdesc_t &a) const
{
	return ioc(DTRACEIOC_PROBEARG, &a);
}

int device::enable(const std::vector<uint8_t> &blob, dtrace_enable_t &out) const
{
	out = {};
	out.dten_prog = reinterpret_cast<uintptr_t>(blob.data());
	out.dten_size = static_cast<uint32_t>(blob.size());
	return ioc(DTRACEIOC_ENABLE, &out);
}

int device::eprobe(uint32_t epid, dtrace_eprobedesc_t &out) const
{
	out = {};
	out.dtpe_epid = epid;
	return ioc(DTRACEIOC_EPROBE, &out);
}

int device::go(uint32_t &cpu) const
{
	return ioc(DTRACEIOC_GO, &cpu);
}

int device::stop(uint32_t &cpu) const
{
	return ioc(DTRACEIOC_STOP, &cpu);
}

int device::status(dtrace_status_t &out) const
{
	out = {};
	return ioc(DTRACEIOC_STATUS, &out);
}

int device::snap(uint32_t cpu, std::vector<uint8_t> &buf, bool agg, dtrace_bufdesc_t &d) const
{
	d = {};
	d.dtbd_data = reinterpret_cast<uintptr_t>(buf.data());
	d.dtbd_size = buf.size();
	d.dtbd_cpu = cpu;
	return ioc(agg ? DTRACEIOC_AGGSNAP : DTRACEIOC_BUFSNAP, &d);
}

} // namespace dt::kmod
