dtrace: failed to compile script err.D_OP_SCALAR.string_in_logical_and.d: line 4: operator && requires operands of scalar type
