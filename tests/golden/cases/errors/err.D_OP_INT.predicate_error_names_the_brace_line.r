dtrace: failed to compile script err.D_OP_INT.predicate_error_names_the_brace_line.d: line 5: operator | requires operands of integral type
