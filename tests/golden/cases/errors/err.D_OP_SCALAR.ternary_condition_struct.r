dtrace: failed to compile script err.D_OP_SCALAR.ternary_condition_struct.d: line 9: operator ?: expression must be of scalar type
