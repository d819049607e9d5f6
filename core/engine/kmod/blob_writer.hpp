// SPDX-License-Identifier: MIT
//
// blob_writer.hpp - writes the DTRACEIOC_ENABLE program blob
// (kmod/include/uapi/dtrace/ioctl.h §4): a header with the options, then
// one section per DIF object, aggregation and ECB, each 8-aligned and
// size-prefixed. The one writer of the format in userspace: the kmod
// engine serializes dt::program with it (program_blob.cc) and the VM
// tests of dtrace.ko (tests/vm/kmod_blob.hpp) build hand-written programs
// with it.
//
//   blob_writer b;                 header with defaults (64 KiB buffers)
//   b.hdr.dtph_bufsize = ...;      options: set the header fields directly
//   n = b.add_difo(...)            DIF objects are numbered 1, 2, ... in order
//   b.add(dtrace_prog_agg_t)       one aggregation
//   b.add(ecb_desc)                one clause for one probe description
//                                  (returns the section's byte range)
//   b.bytes()                      the blob, dtph_size and dtph_nsecs filled in
//
// Header-only and dependency-free (the uapi headers and the standard
// library), so that test programs can use it without libdtrace.
#pragma once

extern "C" {
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/dif.h>
#include <uapi/dtrace/ioctl.h>
}

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dt::kmod {

// One dtrace_prog_act_t (an action record).
struct act_rec {
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

// One dtrace_prog_ecb_t with its action records.
struct ecb_desc {
	std::string provider, mod, func, name; // globs; "" matches anything
	uint32_t pred = 0;		       // DIF object number, 0: none
	uint32_t size = 16;		       // firing size, header included
	uint32_t cookie = 0;		       // returned by DTRACEIOC_EPROBE
	std::vector<act_rec> acts;
};

class blob_writer {
public:
	dtrace_prog_hdr_t hdr{};

	blob_writer()
	{
		hdr.dtph_magic = DTRACE_PROG_MAGIC;
		hdr.dtph_version = DTRACE_PROG_VERSION;
		hdr.dtph_hdrsize = sizeof(hdr);
		hdr.dtph_bufsize = 64 << 10;
		hdr.dtph_aggsize = 64 << 10;
		hdr.dtph_dynvarsize = 64 << 10;
		hdr.dtph_strsize = 256;
	}

	// A DIF object; returns its number (1-based). A non-empty strtab must
	// end with a NUL (the kernel checks).
	uint32_t add_difo(std::span<const dif_instr_t> text, std::span<const uint64_t> inttab,
			  std::string_view strtab, std::span<const dtrace_difv_t> vartab,
			  const dtrace_diftype_t &rtype)
	{
		std::vector<uint8_t> p;
		dtrace_prog_difo_t h{};
		h.dtpd_len = static_cast<uint32_t>(text.size());
		h.dtpd_intlen = static_cast<uint32_t>(inttab.size());
		h.dtpd_strlen = static_cast<uint32_t>(strtab.size());
		h.dtpd_varlen = static_cast<uint32_t>(vartab.size());
		h.dtpd_rtype = rtype;
		put(p, &h, sizeof(h));
		put(p, text.data(), text.size() * sizeof(dif_instr_t));
		pad(p);
		put(p, inttab.data(), inttab.size() * sizeof(uint64_t));
		put(p, strtab.data(), strtab.size());
		pad(p);
		put(p, vartab.data(), vartab.size() * sizeof(dtrace_difv_t));
		section(DTRACE_PSEC_DIFO, p);
		return ++ndifos_;
	}

	void add(const dtrace_prog_agg_t &a)
	{
		std::vector<uint8_t> p;
		put(p, &a, sizeof(a));
		section(DTRACE_PSEC_AGG, p);
	}

	// Returns where the section lies in the blob, [first, second): the
	// kernel's dten_erroff for an error in this ECB falls inside.
	std::pair<uint32_t, uint32_t> add(const ecb_desc &e)
	{
		const auto begin = static_cast<uint32_t>(sizeof(hdr) + body_.size());
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
		for (const act_rec &a : e.acts) {
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
		return {begin, static_cast<uint32_t>(sizeof(hdr) + body_.size())};
	}

	[[nodiscard]] uint32_t ndifos() const { return ndifos_; }

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

	// Does a description field fit its dtrace_prog_ecb_t array?
	[[nodiscard]] static bool fits(const ecb_desc &e)
	{
		return e.provider.size() < DTRACE_PROVNAMELEN && e.mod.size() < DTRACE_MODNAMELEN &&
		       e.func.size() < DTRACE_FUNCNAMELEN && e.name.size() < DTRACE_NAMELEN;
	}

private:
	std::vector<uint8_t> body_;
	uint32_t nsecs_ = 0, ndifos_ = 0;

	static void put(std::vector<uint8_t> &v, const void *p, size_t n)
	{
		if (n == 0)
			return;
		const auto *b = static_cast<const uint8_t *>(p);
		v.insert(v.end(), b, b + n);
	}
	static void pad(std::vector<uint8_t> &v) { v.resize((v.size() + 7) & ~size_t{7}, 0); }
	static void copy(char *dst, const std::string &s, size_t n)
	{
		size_t len = s.size() < n - 1 ? s.size() : n - 1;
		std::memcpy(dst, s.data(), len);
		dst[len] = '\0';
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

} // namespace dt::kmod
