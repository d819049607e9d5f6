// SPDX-License-Identifier: MIT
// engine/buffer_sizes.cc - illumos dtrace_state_go()'s buffer checks
// (buffer_sizes.hpp).
#include "buffer_sizes.hpp"

#include <algorithm>

namespace dt::engines {

buffer_needs buffer_needs_of(const program &p, const enabling &en)
{
	buffer_needs n;
	n.aggregates = !p.aggregations.empty();
	for (size_t i = 0; i < en.eps.size(); i++) {
		const clause &c = p.clauses.at(en.eps[i].clause);
		n.speculates = n.speculates || c.speculative;
		if (!c.records_firing())
			continue; // dtrace_ecb_resize(): no data, size 0
		n.needed = std::max<uint64_t>(n.needed, c.size);
		const probe_fire &f = en.fires.at(i);
		if (f.kind == fire_kind::consumer && f.consumer == consumer_probe::end)
			n.end_reserve += c.size;
	}
	return n;
}

uint64_t principal_bufsize(const buffer_needs &n, const resolved_options &o)
{
	if (n.aggregates && o.aggsize != 0)
		return std::max(o.bufsize, n.needed);
	return o.bufsize;
}

void check_buffer_sizes(const buffer_needs &n, const resolved_options &o)
{
	constexpr uint64_t k_min = sizeof(uint64_t); // the smallest buffer used
	const uint64_t bufsize = principal_bufsize(n, o);
	if ((n.needed != 0 && bufsize < k_min) || (n.speculates && o.specsize < k_min) ||
	    (n.aggregates && o.aggsize < k_min))
		throw engine_error("Enabling exceeds size of buffer");
	if (o.bufpolicy == buffer_policy::fill && n.end_reserve > bufsize)
		throw engine_error("END enablings exceed size of principal buffer");
}

} // namespace dt::engines
