dtrace: failed to compile script err.D_OP_SCALAR.string_as_condition.d: line 5: operator ?: expression must be of scalar type
