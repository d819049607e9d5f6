// SPDX-License-Identifier: MIT
// dt::program -> the DTRACEIOC_ENABLE blob (see program_blob.hpp).
#include "program_blob.hpp"

#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <tuple>

namespace dt::kmod {
namespace {

uint8_t vkind_of(const value_type &t)
{
	switch (t.k) {
	case value_type::kind::string: return DTRACE_PV_STRING;
	case value_type::kind::bytes: return DTRACE_PV_BYTES;
	case value_type::kind::stack: return DTRACE_PV_STACK;
	case value_type::kind::ustack: return DTRACE_PV_USTACK;
	case value_type::kind::usym:
	case value_type::kind::umod:
	case value_type::kind::uaddr: return DTRACE_PV_PIDADDR;
	default: return DTRACE_PV_INT;
	}
}

bool uses_dynamic(const difo &d)
{
	return std::any_of(d.vartab.begin(), d.vartab.end(), [](const dtrace_difv_t &v) {
		return v.dtdv_kind == DIFV_KIND_ARRAY || v.dtdv_scope == DIFV_SCOPE_THREAD;
	});
}

class writer {
public:
	writer(const program &p, const resolved_options &opts, const blob_options &o)
		: p_(p), opts_(opts), o_(o)
	{
	}

	program_blob run()
	{
		options();
		program_blob out;
		out.bufsize = b_.hdr.dtph_bufsize;
		out.aggsize = b_.hdr.dtph_aggsize;
		for (const aggregation &a : p_.aggregations)
			add_agg(a);
		for (uint32_t ci = 0; ci < p_.clauses.size(); ci++)
			add_clause(ci, out);
		out.error_cookie = static_cast<uint32_t>(out.ecbs.size() + 1);
		add_error_ecb(out.error_cookie);
		out.bytes = b_.bytes();
		return out;
	}

private:
	const program &p_;
	const resolved_options &opts_;
	const blob_options &o_;
	blob_writer b_;
	std::map<const difo *, uint32_t> numbers_;

	// The header's options: the resolved options within dtrace.ko's limits.
	void options()
	{
		// illumos bufresize=auto: a smaller buffer rather than none.
		uint64_t bufsize = std::clamp<uint64_t>((opts_.bufsize + 7) & ~uint64_t{7}, 64,
							o_.max_bufsize);
		uint64_t aggsize = 0;
		if (!p_.aggregations.empty())
			aggsize = std::clamp<uint64_t>((opts_.aggsize + 7) & ~uint64_t{7}, 4096,
						       o_.max_bufsize);
		bool dynamic = false;
		for (const clause &c : p_.clauses) {
			dynamic = dynamic || (c.predicate && uses_dynamic(*c.predicate));
			for (const action &a : c.actions) {
				for (const record &r : a.args)
					dynamic = dynamic || uses_dynamic(r.expr);
				for (const record &r : a.keys)
					dynamic = dynamic || uses_dynamic(r.expr);
			}
		}
		uint64_t dynvarsize = dynamic ? std::max<uint64_t>(opts_.dynvarsize, 4096) : 0;
		b_.hdr.dtph_bufsize = bufsize;
		b_.hdr.dtph_aggsize = aggsize;
		b_.hdr.dtph_dynvarsize = dynvarsize;
		b_.hdr.dtph_strsize =
			static_cast<uint32_t>(std::min<uint64_t>(opts_.strsize, 64 << 10));
		b_.hdr.dtph_scratchsize = 0;
		if (o_.destructive)
			b_.hdr.dtph_flags |= DTRACE_PROGF_DESTRUCTIVE;
		if (o_.cpu) {
			b_.hdr.dtph_flags |= DTRACE_PROGF_CPU;
			b_.hdr.dtph_cpu = *o_.cpu;
		}
		// Record timestamps only for a consumer that orders by them.
		if (auto t = p_.option("temporal"); t && *t != "0")
			b_.hdr.dtph_flags |= DTRACE_PROGF_TIMESTAMP;
		// Speculations: at most DTRACE_MAX_NSPEC, and a smaller
		// specsize rather than none (illumos bufresize=auto).
		uint32_t nspec = std::min<uint32_t>(opts_.nspec, DTRACE_MAX_NSPEC);
		uint64_t specsize = opts_.specsize;
		if (nspec != 0)
			specsize = std::min<uint64_t>(specsize, DTRACE_MAX_SPECMEM / nspec);
		b_.hdr.dtph_nspec = nspec;
		b_.hdr.dtph_specsize = specsize;
		b_.hdr.dtph_cleanrate = opts_.cleanrate; // 0: the kernel's 101 Hz
		// bufpolicy (illumos DTRACEOPT_BUFPOLICY): switch is no flag.
		if (opts_.bufpolicy == buffer_policy::fill)
			b_.hdr.dtph_flags |= DTRACE_PROGF_FILL;
		else if (opts_.bufpolicy == buffer_policy::ring)
			b_.hdr.dtph_flags |= DTRACE_PROGF_RING;
	}

	// The DIF object's number (0 for an empty one: nothing to run).
	uint32_t number(const difo &d)
	{
		if (d.text.empty())
			return 0;
		auto it = numbers_.find(&d);
		if (it != numbers_.end())
			return it->second;
		std::string strtab = d.strtab;
		if (!strtab.empty() && strtab.back() != '\0')
			strtab.push_back('\0');
		uint32_t n = b_.add_difo(d.text, d.inttab, strtab, d.vartab, d.rtype);
		numbers_[&d] = n;
		return n;
	}

	void add_agg(const aggregation &a)
	{
		dtrace_prog_agg_t h{};
		h.dtpa_id = a.id;
		h.dtpa_func = a.func;
		h.dtpa_nparams = static_cast<uint16_t>(std::min<size_t>(a.params.size(), 4));
		for (size_t i = 0; i < h.dtpa_nparams; i++)
			h.dtpa_params[i] = a.params[i];
		h.dtpa_keysize = a.key_size;
		h.dtpa_nwords = a.nwords;
		b_.add(h);
	}

	std::vector<act_rec> actions(const clause &c)
	{
		std::vector<act_rec> out;
		for (const action &a : c.actions) {
			if (DTRACEACT_ISAGG(a.kind)) {
				const aggregation *agg =
					a.aggid >= 1 && a.aggid <= p_.aggregations.size()
						? &p_.aggregations[a.aggid - 1]
						: nullptr;
				if (agg == nullptr)
					throw engine_error("aggregation id " + std::to_string(a.aggid) +
							   " is not in the program");
				for (size_t j = 0; j < a.keys.size(); j++) {
					const record &k = a.keys[j];
					const value_type &t = j < agg->keys.size() ? agg->keys[j] : k.type;
					act_rec r;
					r.kind = a.kind;
					r.role = DTRACE_PROLE_KEY;
					r.vkind = vkind_of(t);
					r.difo = number(k.expr);
					r.offset = j < agg->key_offsets.size() ? agg->key_offsets[j] : 0;
					r.size = k.size ? k.size : t.size;
					r.aggid = a.aggid;
					// A ustack key: the pid, then frames to its end.
					r.nframes = static_cast<uint16_t>(
						r.vkind == DTRACE_PV_USTACK ? r.size / 8 - 1
									    : r.size / 8);
					r.flags = j == 0 ? DTRACE_PACT_FIRST : 0;
					out.push_back(r);
				}
				act_rec v;
				v.kind = a.kind;
				v.role = DTRACE_PROLE_VAL;
				v.difo = a.args.empty() ? 0 : number(a.args[0].expr);
				v.aggid = a.aggid;
				v.flags = a.keys.empty() ? DTRACE_PACT_FIRST : 0;
				out.push_back(v);
				if (a.args.size() > 1) {
					act_rec inc = v;
					inc.role = DTRACE_PROLE_INCR;
					inc.difo = number(a.args[1].expr);
					inc.flags = 0;
					out.push_back(inc);
				}
				continue;
			}
			uint16_t kind = a.kind;
			if (o_.strip_destructive && DTRACEACT_ISDESTRUCTIVE(kind))
				kind = DTRACEACT_DIFEXPR;
			if (a.args.empty()) {
				act_rec r;
				r.kind = kind;
				out.push_back(r);
				continue;
			}
			for (size_t j = 0; j < a.args.size(); j++) {
				const record &rec = a.args[j];
				act_rec r;
				r.kind = kind;
				r.vkind = vkind_of(rec.type);
				r.difo = number(rec.expr);
				if (a.records && rec.size != 0) {
					r.offset = rec.offset;
					r.size = rec.size;
				}
				if (r.vkind == DTRACE_PV_STACK)
					r.nframes = static_cast<uint16_t>(
						a.nframes ? a.nframes : rec.size / 8);
				if (r.vkind == DTRACE_PV_USTACK)
					r.nframes = static_cast<uint16_t>(
						a.nframes ? a.nframes : rec.size / 8 - 1);
				r.flags = j == 0 ? DTRACE_PACT_FIRST : 0;
				out.push_back(r);
			}
		}
		return out;
	}

	void add_clause(uint32_t ci, program_blob &out)
	{
		const clause &c = p_.clauses[ci];
		uint32_t pred = c.predicate ? number(*c.predicate) : 0;
		std::vector<act_rec> acts = actions(c);
		for (const probe_desc &d : c.descs) {
			ecb_desc e;
			e.provider = d.provider;
			e.mod = d.mod;
			e.func = d.func;
			e.name = d.name;
			if (!blob_writer::fits(e))
				throw engine_error("probe description " + d.str() +
						   " has a field too long for the kernel");
			e.pred = pred;
			// A clause whose actions store nothing (aggregations,
			// assignments) writes no firing (illumos dte_size 0).
			e.size = c.records_firing()
					 ? std::max<uint32_t>(c.size, sizeof(dtrace_rechdr_t))
					 : 0;
			e.acts = acts;
			// speculate(), commit() and discard() in such a clause pass
			// their value to the kernel and store nothing (illumos
			// dtrace_ecb_action_add() gives them no size).
			if (e.size == 0)
				for (act_rec &r : e.acts)
					if (r.role == DTRACE_PROLE_ARG && DTRACEACT_ISSPECULATIVE(r.kind))
						r.offset = r.size = 0;
			out.ecbs.push_back({ci, d});
			e.cookie = static_cast<uint32_t>(out.ecbs.size());
			std::tie(out.ecbs.back().begin, out.ecbs.back().end) = b_.add(e);
		}
	}

	// dtrace:::ERROR { trace(arg1); ... trace(arg5); } at 16, 24, ... 48.
	void add_error_ecb(uint32_t cookie)
	{
		ecb_desc e;
		e.provider = "dtrace";
		e.name = "ERROR";
		e.size = 16 + 5 * 8;
		e.cookie = cookie;
		for (uint32_t i = 1; i <= 5; i++) {
			std::vector<dif_instr_t> text = {DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + i, 1),
							 DIF_INSTR_RET(1)};
			dtrace_diftype_t t{DIF_TYPE_CTF, 0, 0, 0, 8};
			act_rec r;
			r.difo = b_.add_difo(text, {}, {}, {}, t);
			r.offset = 16 + 8 * (i - 1);
			r.size = 8;
			e.acts.push_back(r);
		}
		b_.add(e);
	}
};

} // namespace

program_blob make_program_blob(const program &p, const resolved_options &opts,
			       const blob_options &o)
{
	return writer(p, opts, o).run();
}

program_blob make_program_blob(const program &p, const blob_options &o)
{
	return make_program_blob(p, engines::engine_options(p), o);
}

} // namespace dt::kmod
