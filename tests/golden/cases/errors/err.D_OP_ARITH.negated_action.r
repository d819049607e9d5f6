dtrace: failed to compile script err.D_OP_ARITH.negated_action.d: line 5: operator - requires an operand of arithmetic type
