// SPDX-License-Identifier: MIT
//
// compiler/codegen/codegen.hpp - pass 4: typed tree -> DIF objects and the
// program's clauses, actions, records, aggregations and variables.
//
//   checked_clause[] + symbols ──► generate() ──► program
//
// Every expression a clause evaluates becomes its own DIF object (one per
// record, per aggregation key, per predicate, per state-changing
// statement), ending in `ret`. Variables use illumos' opcodes: ldgs/stgs
// (globals), ldts/stts (self->), ldls/stls (this->), ldgaa/stgaa and
// ldtaa/sttaa with the tuple stack (associative arrays), ldga for args[],
// call with the tuple stack for subroutines. Records are laid out from the
// end of dtrace_rechdr_t (12 bytes), each at its alignment; the clause size
// is rounded to 8.
#pragma once

#include "../sema/sema.hpp"

namespace dt::compiler {

void generate(symbols &syms, std::vector<checked_clause> &clauses, program &out);

// One expression as a DIF object returning its value (exposed for tests).
[[nodiscard]] difo compile_expr(symbols &syms, const checked_clause *cc, expr &e,
				const type_ref &as_type, bool as_string);

} // namespace dt::compiler
