dtrace: failed to compile script err.D_SYNTAX.pspec_reads_a_declaration_as_a_description.d: line 9: expected predicate and/or actions following probe description
