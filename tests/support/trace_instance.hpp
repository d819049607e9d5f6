// SPDX-License-Identifier: MIT
// Test support: a tracefs instance of the test's own
// (<tracefs>/instances/<name>-<pid>), to watch real kernel events while
// a test makes them happen, without touching the global trace buffer
// that other tools use. Events are disabled and the instance removed on
// destruction. Needs root.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dt::test {

class trace_instance {
public:
	explicit trace_instance(const std::string &name,
				const std::string &tracefs = "/sys/kernel/tracing")
		: tracefs_(tracefs)
	{
		dir_ = tracefs_ + "/instances/" + name + "-" + std::to_string(getpid());
		ok_ = mkdir(dir_.c_str(), 0700) == 0;
	}
	trace_instance(const trace_instance &) = delete;
	trace_instance &operator=(const trace_instance &) = delete;
	~trace_instance()
	{
		for (const auto &e : enabled_)
			write(e + "/enable", "0");
		if (ok_)
			rmdir(dir_.c_str());
	}

	// False if the instance could not be created (errno says why).
	[[nodiscard]] bool ok() const { return ok_; }

	// Enable event "group/event" with a tracefs filter ("" for none);
	// false if it cannot be.
	bool enable(const std::string &group_event, const std::string &filter = "")
	{
		std::string d = dir_ + "/events/" + group_event;
		if (!filter.empty() && !write(d + "/filter", filter))
			return false;
		if (!write(d + "/enable", "1"))
			return false;
		enabled_.push_back(d);
		return true;
	}

	// The instance's trace so far, one event per line.
	[[nodiscard]] std::string trace() const
	{
		std::ifstream f(dir_ + "/trace");
		std::stringstream ss;
		ss << f.rdbuf();
		return ss.str();
	}

private:
	static bool write(const std::string &path, const std::string &text)
	{
		std::ofstream f(path);
		f << text << "\n";
		f.flush();
		return static_cast<bool>(f);
	}

	std::string tracefs_, dir_;
	bool ok_ = false;
	std::vector<std::string> enabled_;
};

} // namespace dt::test
