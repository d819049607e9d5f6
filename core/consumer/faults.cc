// SPDX-License-Identifier: MIT
//
// consumer/faults.cc - fault and drop messages in illumos' words
// (dt_handle.c dt_handle_err(), dt_handle_cpudrop(), dt_handle_status();
// dt_error.c dtrace_faultstr()), prefixed "dtrace: " as dtrace(1) prints
// them on stderr.
#include "internal.hpp"

#include <cinttypes>

namespace dt::consumer_impl {

const char *fault_string(uint16_t code)
{
	switch (code) {
	case DTRACEFLT_BADADDR: return "invalid address";
	case DTRACEFLT_BADALIGN: return "invalid alignment";
	case DTRACEFLT_ILLOP: return "illegal operation";
	case DTRACEFLT_DIVZERO: return "divide-by-zero";
	case DTRACEFLT_NOSCRATCH: return "out of scratch space";
	case DTRACEFLT_KPRIV: return "invalid kernel access";
	case DTRACEFLT_UPRIV: return "invalid user access";
	case DTRACEFLT_TUPOFLOW: return "tuple stack overflow";
	case DTRACEFLT_BADSTACK: return "bad stack";
	case DTRACEFLT_LIBRARY: return "library-level fault";
	default: return "unknown fault";
	}
}

std::string fault_message(const state &st, const fault_report &f)
{
	const enabled_probe *ep = st.ep(f.epid);
	probe_desc pd;
	uint32_t probe_id = 0;
	if (ep) {
		pd = ep->probe;
		probe_id = ep->probe_id;
	}
	std::string where = f.action == 0 ? "predicate" : strf("action #%u", f.action);
	std::string offinfo =
		f.offset != -1 ? strf(" at DIF offset %d", static_cast<int>(f.offset)) : "";
	std::string details;
	if (f.code == DTRACEFLT_BADADDR || f.code == DTRACEFLT_BADALIGN)
		details = strf(" (0x%" PRIx64 ")", f.illval);
	return strf("dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s%s\n",
		    f.epid, probe_id, pd.provider.c_str(), pd.mod.c_str(), pd.func.c_str(),
		    pd.name.c_str(), fault_string(f.code), details.c_str(), where.c_str(),
		    offinfo.c_str());
}

namespace {

// dt_droptag(): each kind of drop's tag, which -xdroptags prints first.
constexpr struct {
	const char *kind, *alias, *tag;
} k_drop_tags[] = {
	{"principal", nullptr, "DTRACEDROP_PRINCIPAL"},
	{"aggregation", nullptr, "DTRACEDROP_AGGREGATION"},
	{"dynamic", nullptr, "DTRACEDROP_DYNAMIC"},
	{"dynrinse", "dynamic_rinsing", "DTRACEDROP_DYNRINSE"},
	{"dyndirty", "dynamic_dirty", "DTRACEDROP_DYNDIRTY"},
	{"speculative", nullptr, "DTRACEDROP_SPEC"},
	{"specbusy", "speculative_busy", "DTRACEDROP_SPECBUSY"},
	{"specunavail", "speculative_unavail", "DTRACEDROP_SPECUNAVAIL"},
	{"dblerror", nullptr, "DTRACEDROP_DBLERROR"},
	{"stkstroverflow", nullptr, "DTRACEDROP_STKSTROVERFLOW"},
};

std::string drop_text(std::string_view kind, uint64_t n, uint32_t cpu)
{
	const char *s = n > 1 ? "s" : "";
	auto u = static_cast<unsigned long long>(n);
	if (kind == "principal")
		return strf("%llu drop%s on CPU %u\n", u, s, cpu);
	if (kind == "aggregation")
		return strf("%llu aggregation drop%s on CPU %u\n", u, s, cpu);
	if (kind == "dynamic")
		return strf("%llu dynamic variable drop%s\n", u, s);
	if (kind == "dynrinse" || kind == "dynamic_rinsing")
		return strf("%llu dynamic variable drop%s with non-empty rinsing list\n", u, s);
	if (kind == "dyndirty" || kind == "dynamic_dirty")
		return strf("%llu dynamic variable drop%s with non-empty dirty list\n", u, s);
	if (kind == "speculative")
		return strf("%llu speculative drop%s\n", u, s);
	if (kind == "specbusy" || kind == "speculative_busy")
		return strf("%llu failed speculation%s (available buffer(s) still busy)\n", u, s);
	if (kind == "specunavail" || kind == "speculative_unavail")
		return strf("%llu failed speculation%s (no speculative buffer available)\n", u, s);
	// dt_handle.c _dt_droptab: DTRACEDROP_DBLERROR, DTRACEDROP_STKSTROVERFLOW.
	if (kind == "dblerror")
		return strf("%llu error%s in ERROR probe enabling\n", u, s);
	if (kind == "stkstroverflow")
		return strf("%llu jstack()/ustack() string table overflow%s\n", u, s);
	return strf("%llu %.*s drop%s on CPU %u\n", u, static_cast<int>(kind.size()), kind.data(),
		    s, cpu);
}

} // namespace

std::string drop_message(std::string_view kind, uint64_t n, uint32_t cpu, bool tag)
{
	std::string pre = "dtrace: ";
	for (const auto &d : k_drop_tags)
		if (tag && (kind == d.kind || (d.alias && kind == d.alias)))
			pre += strf("[%s] ", d.tag);
	return pre + drop_text(kind, n, cpu);
}

} // namespace dt::consumer_impl
