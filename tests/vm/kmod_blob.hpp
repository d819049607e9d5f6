// SPDX-License-Identifier: MIT
//
// kmod_blob.hpp - builds the DTRACEIOC_ENABLE program blob
// (kmod/include/uapi/dtrace/ioctl.h §4) from hand-written DIF, for the VM
// tests of dtrace.ko. The kmod engine will serialize dt::program the same
// way; this is the test's own, independent writer of the format.
#pragma once

extern "C" {
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/dif.h>
#include <uapi/dtrace/ioctl.h>
}

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace dt::kmodtest {

struct difo {
	std::vector<dif_instr_t> text;
	std::vector<uint64_t> inttab;
	std::string strtab;
	std::vector<dtrace_difv_t> vartab;
	dtrace_diftype_t rtype{0, 0, 0, 0, 8};
};

struct act {
	uint16_t kind = DTRACEACT_DIFEXPR;
	uint8_t role = DTRACE_PROLE_ARG;
	uint8_t vkind = DTRACE_PV_INT;
	uint32_t difo = 0;
	uint32_t offset = 0;
	uint32_t size = 0;
	uint32_t aggid = 0;
	uint16_t nframes = 0;
	uint16_t flags = DTRACE_PACT_FIRST;
};

struct ecb {
	std::string provider, mod, func, name;
	uint32_t pred = 0;
	uint32_t size = 16;
	uint32_t cookie = 0;
	std::vector<act> acts;
};

class blob {
public:
	dtrace_prog_hdr_t hdr{};

	blob()
	{
		hdr.dtph_magic = DTRACE_PROG_MAGIC;
		hdr.dtph_version = DTRACE_PROG_VERSION;
		hdr.dtph_hdrsize = sizeof(hdr);
		hdr.dtph_bufsize = 64 << 10;
		hdr.dtph_aggsize = 64 << 10;
		hdr.dtph_dynvarsize = 64 << 10;
		hdr.dtph_strsize = 256;
	}

	// Returns the DIF object's number (1-based).
	uint32_t add(const difo &d)
	{
		std::vector<uint8_t> p;
		dtrace_prog_difo_t h{};
		h.dtpd_len = static_cast<uint32_t>(d.text.size());
		h.dtpd_intlen = static_cast<uint32_t>(d.inttab.size());
		h.dtpd_strlen = static_cast<uint32_t>(d.strtab.size());
		h.dtpd_varlen = static_cast<uint32_t>(d.vartab.size());
		h.dtpd_rtype = d.rtype;
		put(p, &h, sizeof(h));
		put(p, d.text.data(), d.text.size() * 4);
		pad(p);
		put(p, d.inttab.data(), d.inttab.size() * 8);
		put(p, d.strtab.data(), d.strtab.size());
		pad(p);
		put(p, d.vartab.data(), d.vartab.size() * sizeof(dtrace_difv_t));
		section(DTRACE_PSEC_DIFO, p);
		return ++ndifos_;
	}

	void add(const dtrace_prog_agg_t &a)
	{
		std::vector<uint8_t> p;
		put(p, &a, sizeof(a));
		section(DTRACE_PSEC_AGG, p);
	}

	void add(const ecb &e)
	{
		std::vector<uint8_t> p;
		dtrace_prog_ecb_t h{};
		copy(h.dtpe_provider, e.provider, sizeof(h.dtpe_provider));
		copy(h.dtpe_mod, e.mod, sizeof(h.dtpe_mod));
		copy(h.dtpe_func, e.func, sizeof(h.dtpe_func));
		copy(h.dtpe_name, e.name, sizeof(h.dtpe_name));
		h.dtpe_pred = e.pred;
		h.dtpe_size = e.size;
		h.dtpe_nacts = static_cast<uint32_t>(e.acts.size());
		h.dtpe_cookie = e.cookie;
		put(p, &h, sizeof(h));
		for (const act &a : e.acts) {
			dtrace_prog_act_t r{};
			r.dtpa_kind = a.kind;
			r.dtpa_role = a.role;
			r.dtpa_vkind = a.vkind;
			r.dtpa_difo = a.difo;
			r.dtpa_offset = a.offset;
			r.dtpa_size = a.size;
			r.dtpa_aggid = a.aggid;
			r.dtpa_nframes = a.nframes;
			r.dtpa_flags = a.flags;
			put(p, &r, sizeof(r));
		}
		section(DTRACE_PSEC_ECB, p);
	}

	// The finished blob (header sizes filled in).
	[[nodiscard]] std::vector<uint8_t> bytes() const
	{
		dtrace_prog_hdr_t h = hdr;
		h.dtph_nsecs = nsecs_;
		h.dtph_size = static_cast<uint32_t>(sizeof(h) + body_.size());
		std::vector<uint8_t> out;
		out.reserve(sizeof(h) + body_.size());
		put(out, &h, sizeof(h));
		out.insert(out.end(), body_.begin(), body_.end());
		return out;
	}

private:
	std::vector<uint8_t> body_;
	uint32_t nsecs_ = 0, ndifos_ = 0;

	static void put(std::vector<uint8_t> &v, const void *p, size_t n)
	{
		const auto *b = static_cast<const uint8_t *>(p);
		v.insert(v.end(), b, b + n);
	}
	static void pad(std::vector<uint8_t> &v) { v.resize((v.size() + 7) & ~size_t{7}, 0); }
	static void copy(char *dst, const std::string &s, size_t n)
	{
		std::strncpy(dst, s.c_str(), n - 1);
	}
	void section(uint32_t type, std::vector<uint8_t> &p)
	{
		pad(p);
		dtrace_prog_sec_t s{type, static_cast<uint32_t>(sizeof(s) + p.size())};
		put(body_, &s, sizeof(s));
		body_.insert(body_.end(), p.begin(), p.end());
		nsecs_++;
	}
};

// ---- Small DIF objects ------------------------------------------------

inline dtrace_diftype_t int_type(uint32_t size = 8)
{
	return dtrace_diftype_t{DIF_TYPE_CTF, 0, 0, 0, size};
}

inline dtrace_diftype_t string_type(uint32_t size = 256)
{
	return dtrace_diftype_t{DIF_TYPE_STRING, 0, DIF_TF_BYREF, 0, size};
}

// setx v, %r1; ret %r1
inline difo constant(uint64_t v)
{
	difo d;
	d.inttab = {v};
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	return d;
}

// ldgs builtin, %r1; ret %r1 (arg0..arg9, pid, execname ...)
inline difo builtin(uint32_t var, bool string = false)
{
	difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDGS, var, 1), DIF_INSTR_RET(1)};
	d.rtype = string ? string_type() : int_type();
	return d;
}

// arg<n> == v
inline difo arg_equals(uint32_t n, uint64_t v)
{
	difo d;
	d.inttab = {v};
	d.text = {
		DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 1),
		DIF_INSTR_SETX(0, 2),
		DIF_INSTR_CMP(DIF_OP_CMP, 1, 2),
		DIF_INSTR_BRANCH(DIF_OP_BE, 6),
		DIF_INSTR_MOV(0, 3),
		DIF_INSTR_RET(3),
		DIF_INSTR_SETX(1, 3),
		DIF_INSTR_RET(3),
	};
	d.inttab.push_back(1);
	return d;
}

// builtin == v (pid == 123)
inline difo var_equals(uint32_t var, uint64_t v)
{
	difo d = arg_equals(0, v);
	d.text[0] = DIF_INSTR_LDV(DIF_OP_LDGS, var, 1);
	return d;
}

// copyinstr(arg<n>)
inline difo copyinstr_arg(uint32_t n)
{
	difo d;
	d.text = {DIF_INSTR_FLUSHTS, DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 1),
		  DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
		  DIF_INSTR_CALL(DIF_SUBR_COPYINSTR, 2), DIF_INSTR_RET(2)};
	d.rtype = string_type();
	return d;
}

// *(int *)arg<n>: ldsw [arg], %r2 (the load at byte offset 4)
inline difo deref_arg(uint32_t n)
{
	difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 1),
		  DIF_INSTR_LOAD(DIF_OP_LDSW, 1, 2), DIF_INSTR_RET(2)};
	d.rtype = int_type(4);
	return d;
}

// self->v = self->v + arg<n>; ret the new value (thread-local id var)
inline difo self_add_arg(uint32_t var, uint32_t n)
{
	difo d;
	d.text = {DIF_INSTR_LDV(DIF_OP_LDTS, var, 1), DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0 + n, 2),
		  DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 3), DIF_INSTR_STV(DIF_OP_STTS, var, 3),
		  DIF_INSTR_RET(3)};
	dtrace_difv_t v{};
	v.dtdv_id = var;
	v.dtdv_kind = DIFV_KIND_SCALAR;
	v.dtdv_scope = DIFV_SCOPE_THREAD;
	v.dtdv_flags = DIFV_F_REF | DIFV_F_MOD;
	v.dtdv_type = int_type();
	d.vartab = {v};
	return d;
}

} // namespace dt::kmodtest
