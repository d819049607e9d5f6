dtrace: failed to compile script err.D_OP_ARITH.unary_minus_on_string.d: line 4: operator - requires an operand of arithmetic type
