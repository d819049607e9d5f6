// SPDX-License-Identifier: MIT
// fbt's function sources (see function_source.hpp). Both are kernel text
// formats of one or three columns; the lines are split by hand because
// no library parses them (libbpf reads kallsyms only internally).
#include "function_source.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace dt::plugin::fbt {
namespace {

bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view trim(std::string_view s)
{
	while (!s.empty() && is_space(s.front()))
		s.remove_prefix(1);
	while (!s.empty() && is_space(s.back()))
		s.remove_suffix(1);
	return s;
}

// Next whitespace-separated token of `s`, consumed.
std::string_view next_token(std::string_view &s)
{
	s = trim(s);
	size_t end = 0;
	while (end < s.size() && !is_space(s[end]))
		end++;
	std::string_view tok = s.substr(0, end);
	s.remove_prefix(end);
	return tok;
}

// "[module]" -> "module"; nothing -> "vmlinux". False if malformed.
bool module_of(std::string_view rest, std::string_view &mod)
{
	rest = trim(rest);
	if (rest.empty()) {
		mod = "vmlinux";
		return true;
	}
	std::string_view tok = next_token(rest);
	if (tok.size() < 3 || tok.front() != '[' || tok.back() != ']')
		return false;
	mod = tok.substr(1, tok.size() - 2);
	return true;
}

struct file_closer {
	void operator()(FILE *f) const { std::fclose(f); }
};

// Read `path` line by line into fn; 0 or a negative errno. A read error
// after the first line (EPERM shows only at read time on tracefs) is
// reported as well, with `started` telling whether fn saw anything.
int read_lines(const std::string &path, const std::function<bool(std::string_view)> &fn,
	       bool &started)
{
	started = false;
	std::unique_ptr<FILE, file_closer> f(std::fopen(path.c_str(), "re"));
	if (!f)
		return -errno;
	char *buf = nullptr;
	size_t cap = 0;
	ssize_t n;
	int err = 0;
	try {
		errno = 0;
		while ((n = getline(&buf, &cap, f.get())) >= 0) {
			started = true;
			if (fn(std::string_view(buf, static_cast<size_t>(n))))
				break;
			errno = 0;
		}
		if (n < 0 && std::ferror(f.get()))
			err = errno ? -errno : -EIO;
	} catch (...) {
		std::free(buf);
		throw;
	}
	std::free(buf);
	return err;
}

} // namespace

bool parse_filter_function_line(std::string_view line, function_entry &out)
{
	std::string_view func = next_token(line);
	if (func.empty())
		return false;
	out.func = func;
	out.addr = 0;
	return module_of(line, out.mod);
}

bool parse_kallsyms_line(std::string_view line, function_entry &out)
{
	std::string_view addr = next_token(line);
	std::string_view type = next_token(line);
	std::string_view func = next_token(line);
	if (addr.empty() || func.empty() || (type != "t" && type != "T"))
		return false;
	out.func = func;
	out.addr = std::strtoull(std::string(addr).c_str(), nullptr, 16);
	return module_of(line, out.mod);
}

bool parse_blacklist_line(std::string_view line, std::string_view &name)
{
	std::string_view range = next_token(line);
	name = next_token(line);
	return range.starts_with("0x") && !name.empty();
}

bool is_probeable(const function_entry &e)
{
	if (e.func.starts_with("__pfx_") || e.func.starts_with("__cfi_") ||
	    e.func.starts_with("__ftrace_invalid_address__") ||
	    e.func.find('.') != std::string_view::npos)
		return false;
	if (e.mod == "bpf" || e.mod.starts_with("__builtin__"))
		return false;
	// The tracer itself: dtrace.ko and its providers' kernel halves.
	if (e.mod == "dtrace" || e.mod.starts_with("dtrace_"))
		return false;
	return true;
}

std::unordered_set<std::string> read_kprobe_blacklist(const char *path)
{
	std::unordered_set<std::string> names;
	bool started = false;
	(void)read_lines(path, [&](std::string_view line) {
		std::string_view name;
		if (parse_blacklist_line(line, name))
			names.emplace(name);
		return false;
	}, started);
	return names;
}

int walk_functions(const char *tracefs,
		   const std::function<bool(const function_entry &)> &fn,
		   source_kind &used, std::string &why)
{
	why.clear();
	bool started = false;
	if (tracefs != nullptr && *tracefs != '\0') {
		std::string path = std::string(tracefs) + "/available_filter_functions";
		int err = read_lines(path, [&](std::string_view line) {
			function_entry e;
			return parse_filter_function_line(line, e) && fn(e);
		}, started);
		if (err == 0 || started) {
			used = source_kind::filter_functions;
			return err;
		}
		why = path + ": " + std::strerror(-err);
	} else {
		why = "no tracefs";
	}
	int err = read_lines("/proc/kallsyms", [&](std::string_view line) {
		function_entry e;
		return parse_kallsyms_line(line, e) && fn(e);
	}, started);
	used = started || err == 0 ? source_kind::kallsyms : source_kind::none;
	return err;
}

int kallsyms_addresses(std::unordered_map<std::string, uint64_t> &wanted, const char *path)
{
	if (wanted.empty())
		return 0;
	std::unordered_set<std::string> done; // keys whose first symbol was seen
	std::string key;
	bool started = false;
	size_t left = wanted.size();
	return read_lines(
		path,
		[&](std::string_view line) {
			function_entry e;
			if (!parse_kallsyms_line(line, e))
				return false;
			key.assign(e.mod).append(1, ' ').append(e.func);
			auto it = wanted.find(key);
			if (it == wanted.end() || !done.insert(key).second)
				return false;
			it->second = e.addr;
			return --left == 0;
		},
		started);
}

const char *source_name(source_kind k)
{
	switch (k) {
	case source_kind::filter_functions: return "available_filter_functions";
	case source_kind::kallsyms: return "/proc/kallsyms";
	default: return "none";
	}
}

} // namespace dt::plugin::fbt
