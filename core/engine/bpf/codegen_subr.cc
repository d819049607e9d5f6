// SPDX-License-Identifier: MIT
//
// codegen_subr.cc - DIF's call: subroutine NAME is the library's
// dt_subr_NAME(m, strsize, a1, a2, a3) (lib/dt_lib.h), arguments from the
// tuple registers; too few arguments fault ILLOP as dif_subr() does,
// optional ones left out get the value the library reads as "absent";
// a subroutine the library lacks is refused with its name and line. Names
// and argument counts: dif_subrs.def (dif_isa.h), the interpreter's list.
#include "codegen.hpp"
#include "dif_isa.h"

namespace dt::engines::bpf {

// The library passes three arguments (dt_subr_NAME(m, strsize, a1, a2, a3)):
// enough for every subroutine D has.
constexpr unsigned k_lib_subr_args = 3;
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind) \
	static_assert((max) <= k_lib_subr_args,                  \
		      "dif_subrs.def: " name " has more arguments than lib/dt_lib.h passes");
#include "dif_subrs.def"
#undef DIF_SUBR

// dif_subrs.def's names (illumos dtrace_subrstr()).
const char *subr_name(uint32_t subr)
{
	return dif_subr_name(subr);
}

// The value of optional argument j the D call left out (lib/dt_lib.h:
// each means the interpreter's default).
uint64_t subr_absent_arg(uint32_t subr, unsigned j, uint64_t strsize)
{
	switch (subr) {
	case DIF_SUBR_SUBSTR: return j == 2 ? strsize : 0;
	case DIF_SUBR_RINDEX: return j == 2 ? 0x7fffffffffffffffULL : 0; // DT_LIB_RINDEX_END
	case DIF_SUBR_LLTOSTR:
	case DIF_SUBR_STRTOLL: return j == 1 ? 10 : 0;
	case DIF_SUBR_COPYINSTR: return j == 1 ? strsize : 0;
	default: return 0; // index(): start 0
	}
}

namespace {

// Does the library walk the subroutine's strings a byte per loop step (or
// with a costly body)? Those loops are bounded by DT_BPF_STRFUNC_MAX for
// the verifier (dt_bpf_abi.h); the others copy with helpers or walk words.
bool subr_byte_loops(uint32_t subr)
{
	switch (subr) {
	case DIF_SUBR_STRSTR:
	case DIF_SUBR_INDEX:
	case DIF_SUBR_RINDEX:
	case DIF_SUBR_STRTOLL:
	case DIF_SUBR_BASENAME:
	case DIF_SUBR_DIRNAME:
	case DIF_SUBR_STRTOK:
	case DIF_SUBR_CLEANPATH:
	case DIF_SUBR_COPYINARGS: return true; // a word loop, but a costly body
	default: return false;
	}
}

} // namespace

void codegen::subr_call(uint32_t subr, unsigned rd, int64_t pc, const std::vector<bool> &tup)
{
	const char *name = subr_name(subr);
	if (name == nullptr)
		refuse("unknown subroutine " + std::to_string(subr));
	// l_.strsize counts the NUL after the option's characters.
	if (subr_byte_loops(subr) && l_.strsize > DT_BPF_STRFUNC_MAX)
		refuse(std::string(name) + "() supports strsize up to " +
		       std::to_string(DT_BPF_STRFUNC_MAX - 1) + " (strsize is " +
		       std::to_string(l_.strsize - 1) + ")");
	std::string sym = std::string("dt_subr_") + name;
	if (!lib_.has(sym))
		refuse(std::string("subroutine ") + name +
		       "() is not supported by the bpf engine yet");
	if (tup.size() > k_lib_subr_args)
		refuse(std::string("subroutine ") + name + "() with " + std::to_string(tup.size()) +
		       " arguments");
	// Too few arguments: ILLOP, as dif_subr() (illval: the subroutine).
	if (tup.size() < dif_subr_min_args(subr)) {
		set_fault(DTRACEFLT_ILLOP, subr, pc, true);
		return;
	}
	mem_off_ptr(BPF_REG_1, DT_M(subr_nargs));
	a.st_imm(BPF_DW, BPF_REG_1, 0, static_cast<int32_t>(tup.size()));
	a.mov_reg(BPF_REG_1, BPF_REG_7);
	a.mov_imm(BPF_REG_2, static_cast<int32_t>(l_.strsize));
	for (unsigned j = 0; j < k_lib_subr_args; j++) {
		int reg = static_cast<int>(BPF_REG_3 + j);
		if (j < tup.size())
			a.ldx(BPF_DW, reg, BPF_REG_10, fp_tup(j));
		else
			a.ld_imm64(reg, subr_absent_arg(subr, j, l_.strsize));
	}
	lib_call(sym.c_str(), pc);
	wr_reg(rd, BPF_REG_0);
}

} // namespace dt::engines::bpf
