dtrace: failed to compile script err.D_OP_INT.modulo_of_string.d: line 4: operator % requires operands of integral type
