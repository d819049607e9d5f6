// SPDX-License-Identifier: MIT
//
// maps.hpp - the bpf engine's maps (abi/dt_bpf_abi.h), created from the
// translator's layout (translate.hpp plan()) and the runtime's own sizes:
//
//   dt_mem       ARRAY[possible CPUs]   struct dt_bpf_mem
//   dt_status    ARRAY[1]               struct dt_bpf_status
//   dt_cpustate  PERCPU_ARRAY[1]        struct dt_bpf_cpustate
//   dt_ring      RINGBUF                bufsize rounded up to a power of two
//                                       (one ring for all CPUs, where
//                                       DTrace's bufsize is per CPU)
//   dt_probes    ARRAY[#EPIDs + 1]      struct dt_bpf_probe by EPID
//   dt_strtab    ARRAY[1]               layout.strtab, zero-padded to
//                                       DT_BPF_STRTAB_SIZE
//   dt_globals   ARRAY[1]               DT_BPF_GLOBALS_MAX bytes (layout.globals_size used)
//   dt_tls       HASH                   dt_bpf_dvar_key -> value
//   dt_dvars     HASH                   dt_bpf_dvar_key + tuple -> value
//   dt_agg_<id>  PERCPU_HASH            {aggid, generation, key} -> the
//                                       actions.h words, per CPU; shared
//                                       by aggregations of one key and
//                                       value size when the layout says so
//   dt_aggen     ARRAY[1]               u32: the generation programs write
//                                       (aggs.hpp; only with aggregations)
//   dt_epids_<n> ARRAY u32              filter (e.g. syscall nr) -> EPID
//   dt_spec      ARRAY[nspec + 1]       struct dt_bpf_spec (spec_buffer.hpp)
//
// Errors: engine_error; privilege_error when the kernel refuses bpf()
// for lack of privilege (EPERM), so that dtrace can say so DTrace's way.
#pragma once

#include "fd.hpp"
#include "translate.hpp"

#include <dtrace/engine.hpp>

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "abi/dt_bpf_abi.h"
}

namespace dt {
class kernel_btf;
}

namespace dt::engines::bpf {

class privilege_error : public engine_error {
public:
	explicit privilege_error(const std::string &message)
		: engine_error(message, errc::privilege)
	{
	}
};

// What illumos says when the kernel refuses (dt_open.c: EPERM).
inline constexpr const char *k_privilege_message = "DTrace requires additional privileges";

struct engine_maps {
	uint32_t ncpus = 1; // possible CPUs
	unique_fd mem, status, cpustate, ring, probes, strtab, globals, tls, dvars;
	// Aggregation maps: one per aggregation, or (layout::agg_key_prefixed)
	// one per distinct (key_size, value_size), shared.
	struct agg_store {
		unique_fd fd;
		uint32_t key_size = 8, value_size = 8;
		bool prefixed = false;
		std::vector<uint32_t> aggids;
	};
	std::vector<agg_store> agg_stores;
	std::vector<int> aggs;		    // fd by aggid - 1
	unique_fd agg_gen;		    // dt_aggen
	std::vector<unique_fd> epid_tables; // owned here, referred to by ecb_ref
	unique_fd spec;			    // dt_spec (spec_buffer.hpp create_spec_map)

	[[nodiscard]] map_fds fds() const;
};

// Create every map but the EPID tables. ring_bytes: a power of two, at
// least one page. nepids: the highest EPID.
[[nodiscard]] engine_maps create_maps(const layout &l, uint32_t nepids, uint64_t ring_bytes);

// An EPID table of `entries` u32 slots (zero: no ECB); returns its fd.
[[nodiscard]] int create_epid_table(engine_maps &m, uint32_t entries);
void set_epid(int table_fd, uint32_t filter, uint32_t epid);

// dt_probes[epid] = the probe's names and id.
void set_probe(const engine_maps &m, uint32_t epid, const enabled_probe &ep);

// dt_status.activity (enum dt_bpf_activity).
[[nodiscard]] uint64_t activity(const engine_maps &m);
void set_activity(const engine_maps &m, uint64_t a);
// The maxframes option's limit for stackdepth and ustackdepth (0: none).
void set_maxframes(const engine_maps &m, uint32_t n);

// dt_cpustate of every possible CPU.
[[nodiscard]] std::vector<dt_bpf_cpustate> cpustates(const engine_maps &m);

// bufsize -> ring size: rounded up to a power of two, at least a page.
[[nodiscard]] uint64_t ring_size(uint64_t bufsize);

// Byte offset of member `name` in struct `sname` (vmlinux BTF), or 0.
[[nodiscard]] uint32_t btf_member_offset(const kernel_btf &b, const char *sname, const char *name);

} // namespace dt::engines::bpf
