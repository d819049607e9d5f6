// SPDX-License-Identifier: MIT
//
// translate.cc - translate(): code generation (codegen_*.cc), jump
// resolution, then linking the BPF library's functions (link.cc).
#include "btf.hpp"
#include "codegen.hpp"

#include <set>

namespace dt::engines::bpf {

translated translate(const program &p, const layout &l, const probe_spec &spec, const map_fds &fds)
{
	const library &lib = embedded_library();
	codegen g(p, l, spec, fds, lib);
	g.generate();
	g.a.finish();
	link_result lr = link(g.a, lib, fds);
	uint32_t lib_start = lr.lib_start;
	translated t;
	if (lr.callbacks)
		build_btf(lr.func_starts, t.btf, t.func_info);
	t.clause_starts = std::move(g.clause_starts);
	if (lib_start < g.a.code.size())
		t.clause_starts.emplace_back(lib_start, UINT32_MAX);
	t.insns = std::move(g.a.code);
	// The kernel's limit on maps one program may use (MAX_USED_MAPS).
	std::set<int32_t> used;
	for (const bpf_insn &i : t.insns)
		if (i.code == (BPF_LD | BPF_DW | BPF_IMM) && i.src_reg == BPF_PSEUDO_MAP_FD)
			used.insert(i.imm);
	if (used.size() > 64)
		throw translate_error("bpf engine: the clauses of one probe use " +
				      std::to_string(used.size()) +
				      " maps (one per aggregation, plus the engine's); the "
				      "kernel allows 64 per program");
	if (t.insns.size() > 1000000)
		throw translate_error("bpf engine: the program has " +
				      std::to_string(t.insns.size()) +
				      " instructions, more than the kernel accepts");
	return t;
}

} // namespace dt::engines::bpf
