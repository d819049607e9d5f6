dtrace: failed to compile script err.D_OP_ARITH.float_addition.d: line 7: operator + requires operands of arithmetic type
