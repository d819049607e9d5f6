// SPDX-License-Identifier: MIT
//
// fd.hpp - an owned file descriptor (maps, programs, links, perf events)
// and the bpf engine's errno-to-message helper. Closing a link or a perf
// event fd detaches what it attached.
#pragma once

#include <unistd.h>

#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace dt::engines::bpf {

class unique_fd {
public:
	unique_fd() = default;
	explicit unique_fd(int fd) : fd_(fd) {}
	unique_fd(unique_fd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
	unique_fd &operator=(unique_fd &&o) noexcept
	{
		if (this != &o)
			reset(std::exchange(o.fd_, -1));
		return *this;
	}
	unique_fd(const unique_fd &) = delete;
	unique_fd &operator=(const unique_fd &) = delete;
	~unique_fd() { reset(); }

	[[nodiscard]] int get() const { return fd_; }
	[[nodiscard]] explicit operator bool() const { return fd_ >= 0; }
	void reset(int fd = -1)
	{
		if (fd_ >= 0)
			::close(fd_);
		fd_ = fd;
	}

private:
	int fd_ = -1;
};

// Close `fds` on a thread of their own, for what may still be attached
// when this returns: closing a uprobe's perf event waits for the kernel's
// uprobe grace period (a tenth of a second on a busy machine), which the
// consumer's loop must not wait for. Only for the probes of a process that
// has exited, which nothing can fire any more.
inline void close_later(std::vector<unique_fd> fds)
{
	if (!fds.empty())
		std::thread([v = std::move(fds)]() mutable { v.clear(); }).detach();
}

// strerror() of a negative or positive errno.
[[nodiscard]] inline std::string errno_text(int err)
{
	return std::strerror(err < 0 ? -err : err);
}

} // namespace dt::engines::bpf
