dtrace: failed to compile script err.D_OP_SCALAR.logical_not_of_struct.d: line 9: operator ! requires an operand of scalar type
