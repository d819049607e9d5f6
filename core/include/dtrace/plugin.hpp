// SPDX-License-Identifier: MIT
//
// dtrace/plugin.hpp - optional C++ helpers for writing a provider plugin.
//
// Header-only and part of the SDK, so a plugin built out of tree gets
// the same helpers as the in-tree ones without linking anything of
// libdtrace. The ABI itself is dtrace/plugin.h; nothing here changes it.
//
//   guard(fn)            run a plugin op, turning exceptions into -errno
//   is_glob / field_matches
//                        DTrace's glob rules for the query's hint fields
//   table_probe, report_table, report_table_args
//                        probes described by a constant table (proc, tcp)
//   bpf_attach_desc, give_attach
//                        fill a dt_bpf_attach_t for the bpf engine's hook
#pragma once

#include <dtrace/plugin.h>

#include <fnmatch.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <string_view>

namespace dt::sdk {

// Run one plugin operation. No exception may cross the C ABI: an
// allocation failure becomes -ENOMEM, anything else -EIO.
template <typename F>
[[nodiscard]] int guard(F &&fn) noexcept
{
	try {
		return fn();
	} catch (const std::bad_alloc &) {
		return -ENOMEM;
	} catch (...) {
		return -EIO;
	}
}

// True if `pattern` has a glob metacharacter (* ? [ \).
[[nodiscard]] inline bool is_glob(std::string_view pattern)
{
	return pattern.find_first_of("*?[\\") != std::string_view::npos;
}

// A query field against a name: NULL or "" matches anything; otherwise
// DTrace's gmatch rules, which are fnmatch(3) with no flags.
[[nodiscard]] inline bool field_matches(const char *glob, const char *name)
{
	return glob == nullptr || *glob == '\0' || fnmatch(glob, name, 0) == 0;
}

// One argument of a table-described probe; a NULL `native` ends the list.
struct table_arg {
	int32_t mapping;    // the native argument args[n] is built from
	const char *native; // C type at the probe site
	const char *xlate;  // D type through a translator, or NULL
};

// A probe of a fixed table. Up to six typed arguments (the most any
// classic provider has: tcp:::state-change).
struct table_probe {
	const char *name;
	std::array<table_arg, 6> args;
};

// Report every probe of `table` as provider:mod:func:name, with the
// table index as its cookie. The host filters them against the query.
inline int report_table(std::span<const table_probe> table, const char *provider,
			const char *mod, const char *func, dt_probe_cb cb, void *arg)
{
	for (uint64_t i = 0; i < table.size(); i++) {
		dt_probe_info_t p = {sizeof(p), provider, mod, func, table[i].name, i};
		if (cb(arg, &p))
			break;
	}
	return 0;
}

// Report the arguments of a probe that report_table() reported: found by
// its cookie and checked by name; -ENOENT for anything else.
inline int report_table_args(std::span<const table_probe> table,
			     const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
{
	if (probe->cookie >= table.size() ||
	    std::strcmp(table[probe->cookie].name, probe->name) != 0)
		return -ENOENT;
	int32_t ndx = 0;
	for (const table_arg &a : table[probe->cookie].args) {
		if (a.native == nullptr)
			break;
		dt_arg_desc_t d = {sizeof(d), ndx++, a.mapping, a.native, a.xlate, nullptr};
		if (cb(arg, &d))
			break;
	}
	return 0;
}

// A dt_bpf_attach_t as this plugin was compiled, zeroed, sz set, and
// the argument map the identity (args[i] is raw argument i).
[[nodiscard]] inline dt_bpf_attach_t bpf_attach_desc(int32_t kind, const char *target = nullptr)
{
	dt_bpf_attach_t a;
	std::memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.kind = kind;
	a.target = target;
	a.cpu = -1;
	a.pid = -1;
	for (int32_t i = 0; i < 10; i++)
		a.argmap[i] = i;
	return a;
}

// Hand `a` to the host's `out`: only the fields the host's struct has
// (its sz, which the host set), so a host built against an older
// plugin.h never has memory written past its struct. out->sz is kept.
inline void give_attach(dt_bpf_attach_t *out, const dt_bpf_attach_t &a)
{
	size_t host_sz = out->sz;
	size_t n = host_sz < sizeof(a) ? host_sz : sizeof(a);
	if (n > sizeof(a.sz))
		std::memcpy(reinterpret_cast<char *>(out) + sizeof(a.sz),
			    reinterpret_cast<const char *>(&a) + sizeof(a.sz), n - sizeof(a.sz));
	out->sz = host_sz;
}

} // namespace dt::sdk
